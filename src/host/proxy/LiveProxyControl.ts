// "Context Lens: Start Live Proxy" / "Stop Live Proxy": the live proxy in the extension host for
// this workspace. While it runs, new terminals get the variables each agent that can be pointed by
// one reads (its adapter's `liveProxy.terminalEnv`: ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL), so
// the agent started there goes through it, and the proxy sends each API's requests where that
// variable pointed before; it reads the panel's choices and thresholds as any proxy does
// (PanelInstructionsWriter), and the status bar says what it saved; stopped, nothing points at it.
import * as vscode from 'vscode';
import type { LiveProxyState } from '../../protocol/messages';
import type { PriceIndex } from '../../pricing';
import { startLiveProxy, type LiveProxy } from '../../proxy';
import { AGENTS } from '../../sessions/agents';
import { Commands } from '../commands';
import { liveProxyStatus } from './liveProxyStatus';
import { Disposables } from '../disposables';
import type { TerminalEnvironment } from '../terminalEnvironment';

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
  ) {
    super();
    this.item.name = 'Context Lens: live proxy';
    this.own(vscode.commands.registerCommand(Commands.startLiveProxy, () => this.start()));
    this.own(vscode.commands.registerCommand(Commands.stopLiveProxy, () => this.stop()));
    // The proxy stops with the window, before its commands and status item go.
    this.onDispose(() => void this.stop());
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
    const upstreams = Object.fromEntries(this.pointings('http://127.0.0.1:1').map((pointing) => [pointing.format, pointing.upstream]));
    const started = await startLiveProxy({ env: process.env, upstreams, live: { prices: this.prices() }, log: (line) => this.log.info(`proxy: ${line}`) });
    if (!started.ok) {
      void vscode.window.showErrorMessage(`Context Lens: the live proxy did not start: ${started.error}`);
      return;
    }
    this.proxy = started.value;
    const pointings = this.pointings(this.proxy.url);
    for (const pointing of pointings)
      for (const [name, value] of Object.entries(pointing.env))
        this.terminals.set(name, value, `Context Lens live proxy: ${pointing.agent} started in this terminal sends its requests through it.`);
    this.pointed = pointings.flatMap((pointing) => Object.keys(pointing.env));
    this.log.info(`live proxy on ${this.proxy.url}, events in ${this.proxy.eventsPath}`);
    this.render();
    const byEnv = pointings.map((pointing) => pointing.command).join(' or ');
    const byRun = AGENTS.filter((adapter) => adapter.liveProxy && !adapter.liveProxy.terminalEnv)
      .map((adapter) => `ctxlens run -- ${adapter.command}`)
      .join(', ');
    void vscode.window.showInformationMessage(
      `Context Lens: live proxy on ${this.proxy.url}. Start ${byEnv} in a new terminal to go through it${byRun ? ` (others: ${byRun})` : ''}.`,
    );
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
