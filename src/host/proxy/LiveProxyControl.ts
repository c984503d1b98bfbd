// "Context Lens: Start Live Proxy" / "Stop Live Proxy": the live proxy in the extension host for
// this workspace. While it runs, new terminals get the variables each agent that can be pointed by
// one reads (its adapter's `liveProxy.terminalEnv`: ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL), and
// a folder first on PATH whose scripts run the other agents' commands through it (commandShims.ts:
// Codex CLI, pointed by a `-c` flag), so the agent started there goes through it; the proxy sends
// each API's requests where that agent would have sent them. It reads the panel's choices and
// thresholds as any proxy does (PanelInstructionsWriter), and the status bar says what it saved;
// stopped, nothing points at it.
import { delimiter } from 'node:path';
import * as vscode from 'vscode';
import type { LiveProxyState } from '../../protocol/messages';
import type { PriceIndex } from '../../pricing';
import { startLiveProxy, type LiveProxy } from '../../proxy';
import { AGENTS } from '../../sessions/agents';
import { PLANNING_ORIGIN, type AgentWireFormat } from '../../sessions/liveProxy';
import type { LauncherRuntime } from '../cliLauncher';
import { Commands } from '../commands';
import { makeShimFolder, removeShims, writeShimScripts, type ShimCommand } from './commandShims';
import { liveProxyStatus } from './liveProxyStatus';
import { Disposables } from '../disposables';
import type { TerminalEnvironment } from '../terminalEnvironment';

/** Where the proxy's terminal commands are written, and what runs the bundled CLI they call. */
export interface ShimPlace {
  readonly parent: string;
  readonly runtime: LauncherRuntime;
}

/** An agent no variable points, but `ctxlens run` can: its commands, and where its API goes. */
interface ByCommand {
  readonly agent: string;
  /** The agent's command as the messages name it (`codex`). */
  readonly command: string;
  readonly commands: readonly string[];
  readonly upstream: string;
  readonly format: AgentWireFormat;
}

export class LiveProxyControl extends Disposables {
  private proxy: LiveProxy | undefined;
  private readonly item = this.own(vscode.window.createStatusBarItem('contextLens.liveProxy', vscode.StatusBarAlignment.Right, 99));
  private summary: LiveProxyState | null = null;

  constructor(
    /** New terminals get the agents' base URL variables while the proxy runs. */
    private readonly terminals: TerminalEnvironment,
    private readonly log: vscode.LogOutputChannel,
    /** The prices the panel shows (the bundled table with `contextLens.cost.prices` over it), read at each start. */
    private readonly prices: () => PriceIndex,
    /** Absent (or on Windows): the agents no variable points are left to `ctxlens run`. */
    private readonly shimPlace?: ShimPlace,
  ) {
    super();
    this.item.name = 'Context Lens: live proxy';
    this.own(vscode.commands.registerCommand(Commands.startLiveProxy, () => this.start()));
    this.own(vscode.commands.registerCommand(Commands.stopLiveProxy, () => this.stop()));
    // The proxy stops with the window, before its commands and status item go; the commands' folder goes too.
    this.onDispose(() => {
      const folder = this.shimFolder;
      void this.stop().finally(() => folder !== undefined && removeShims(folder).catch(() => undefined));
    });
    this.render();
  }

  /** What the panel shows about the followed session's requests, for the status bar's saving. */
  showSummary(summary: LiveProxyState | null): void {
    this.summary = summary;
    this.render();
  }

  private async start(): Promise<void> {
    if (this.proxy) {
      void vscode.window.showInformationMessage(`Context Lens: the live proxy already runs on ${this.proxy.url}.`);
      return;
    }
    // Where each agent would have gone: the variable the window was started with, else its API. Its
    // break-even is priced as the panel prices the session, so the two never disagree.
    const pointings = this.pointings(PLANNING_ORIGIN);
    const byCommand = this.byCommand().filter(
      (agent) => !pointings.some((pointing) => pointing.format === agent.format && pointing.upstream !== agent.upstream),
    );
    const upstreams = Object.fromEntries([...byCommand, ...pointings].map((pointing) => [pointing.format, pointing.upstream]));
    const started = await startLiveProxy({ env: process.env, upstreams, live: { prices: this.prices() }, log: (line) => this.log.info(`proxy: ${line}`) });
    if (!started.ok) {
      void vscode.window.showErrorMessage(`Context Lens: the live proxy did not start: ${started.error}`);
      return;
    }
    this.proxy = started.value;
    const pointed = this.pointings(this.proxy.url);
    for (const pointing of pointed)
      for (const [name, value] of Object.entries(pointing.env))
        this.terminals.set(name, value, `Context Lens live proxy: ${pointing.agent} started in this terminal sends its requests through it.`);
    this.pointed = pointed.flatMap((pointing) => Object.keys(pointing.env));
    const shimmed = await this.pointCommands(byCommand, this.proxy.url);
    this.log.info(`live proxy on ${this.proxy.url}, events in ${this.proxy.eventsPath}`);
    this.render();
    const inTerminals = [...pointed.map((pointing) => pointing.command), ...shimmed].join(' or ');
    const byRun = AGENTS.filter((adapter) => adapter.liveProxy && !adapter.liveProxy.terminalEnv && !shimmed.includes(adapter.command))
      .map((adapter) => `ctxlens run -- ${adapter.command}`)
      .join(', ');
    void vscode.window.showInformationMessage(
      `Context Lens: live proxy on ${this.proxy.url}. Start ${inTerminals} in a new terminal to go through it${byRun ? ` (others: ${byRun})` : ''}.`,
    );
  }

  /** The scripts of the agents no variable points, first on new terminals' PATH; the commands so pointed. */
  private async pointCommands(agents: readonly ByCommand[], origin: string): Promise<string[]> {
    const place = this.shimPlace;
    if (place === undefined || process.platform === 'win32' || agents.length === 0) return [];
    const commands: ShimCommand[] = agents.flatMap((agent) =>
      agent.commands.filter((name) => !name.endsWith('.exe')).map((name) => ({ name, agent: agent.agent, upstream: agent.upstream })),
    );
    // One folder per window: a terminal opened during an earlier start has it on its PATH, and goes through this proxy now.
    if (this.shimFolder === undefined) {
      const made = await makeShimFolder(place.parent);
      if (!made.ok) {
        this.log.warn(`Live proxy: ${made.error}; ${agents.map((agent) => agent.agent).join(', ')} in new terminals go without it`);
        return [];
      }
      this.shimFolder = made.value;
    }
    const written = await writeShimScripts(this.shimFolder, commands, place.runtime, origin);
    if (!written.ok) {
      this.log.warn(`Live proxy: ${written.error}; ${agents.map((agent) => agent.agent).join(', ')} in new terminals go without it`);
      return [];
    }
    this.shimmed = commands;
    this.terminals.prepend(
      'PATH',
      `${this.shimFolder}${delimiter}`,
      `Context Lens live proxy: ${commands.map((command) => command.name).join(', ')} started in this terminal go through it.`,
    );
    return agents.map((agent) => agent.command);
  }

  /** The folder of the terminals' scripts, once written; removed when the window closes. */
  private shimFolder: string | undefined;
  /** The commands whose scripts point at the running proxy. */
  private shimmed: readonly ShimCommand[] = [];

  /** Agents `ctxlens run` points (arguments) but no terminal variable does, with where their API goes from this window. */
  private byCommand(): ByCommand[] {
    return AGENTS.flatMap((adapter) => {
      const proxy = adapter.liveProxy;
      if (proxy === undefined || proxy.terminalEnv !== undefined) return [];
      const planned = proxy.point(PLANNING_ORIGIN, process.env, []);
      if (!planned.ok) {
        this.log.warn(`Live proxy: ${adapter.name} in new terminals goes without it: ${planned.error}`);
        return [];
      }
      return [{ agent: adapter.name, command: adapter.command, commands: proxy.commands, upstream: planned.value.upstream, format: planned.value.format }];
    });
  }

  /** The variables set in new terminals while the proxy runs. */
  private pointed: string[] = [];

  /** How each agent that a terminal variable can point goes through the proxy at `origin`. */
  private pointings(origin: string): { agent: string; command: string; env: Readonly<Record<string, string>>; upstream: string; format: string }[] {
    return AGENTS.flatMap((adapter) => {
      const pointing = adapter.liveProxy?.terminalEnv?.(origin, process.env);
      return pointing ? [{ agent: adapter.name, command: adapter.command, ...pointing }] : [];
    });
  }

  private async stop(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    for (const name of this.pointed) this.terminals.delete(name);
    this.pointed = [];
    if (this.shimmed.length > 0 && this.shimFolder !== undefined && this.shimPlace !== undefined) {
      // A terminal opened while it ran still has the folder on its PATH: its commands run as they are now.
      this.terminals.delete('PATH');
      const stopped = await writeShimScripts(this.shimFolder, this.shimmed, this.shimPlace.runtime, null);
      if (!stopped.ok) this.log.warn(`Live proxy: ${stopped.error}`);
      this.shimmed = [];
    }
    this.render();
    if (proxy) await proxy.stop();
  }

  private render(): void {
    if (!this.proxy) {
      this.item.hide();
      return;
    }
    const status = liveProxyStatus(this.proxy.url, this.summary);
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.accessibilityInformation = { label: status.tooltip };
    this.item.command = Commands.stopLiveProxy;
    this.item.show();
  }
}
