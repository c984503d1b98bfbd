// "Context Lens: Start Live Proxy" / "Stop Live Proxy": the live proxy in the extension host for
// this workspace. While it runs, new terminals get ANTHROPIC_BASE_URL pointing at it (so `claude`
// started there goes through it), it reads the panel's choices and thresholds as any proxy does
// (PanelInstructionsWriter), and the status bar says what it saved; stopped, nothing points at it.
import * as vscode from 'vscode';
import type { LiveProxyState } from '../../protocol/messages';
import type { PriceIndex } from '../../pricing';
import { startLiveProxy, type LiveProxy } from '../../proxy';
import { Commands } from '../commands';
import { liveProxyStatus } from './liveProxyStatus';
import { Disposables } from '../disposables';
import type { TerminalEnvironment } from '../terminalEnvironment';

export class LiveProxyControl extends Disposables {
  private proxy: LiveProxy | undefined;
  private readonly item = this.own(vscode.window.createStatusBarItem('contextLens.liveProxy', vscode.StatusBarAlignment.Right, 99));
  private summary: LiveProxyState | null = null;

  constructor(
    /** New terminals get ANTHROPIC_BASE_URL while the proxy runs. */
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
    // Where the agent would have gone: the variable the window was started with, else the API. Its
    // break-even is priced as the panel prices the session, so the two never disagree.
    const upstream = process.env.ANTHROPIC_BASE_URL ? { upstream: process.env.ANTHROPIC_BASE_URL } : {};
    const started = await startLiveProxy({ env: process.env, ...upstream, live: { prices: this.prices() }, log: (line) => this.log.info(`proxy: ${line}`) });
    if (!started.ok) {
      void vscode.window.showErrorMessage(`Context Lens: the live proxy did not start: ${started.error}`);
      return;
    }
    this.proxy = started.value;
    this.terminals.set('ANTHROPIC_BASE_URL', this.proxy.url, 'Context Lens live proxy: Claude Code started in this terminal sends its requests through it.');
    this.log.info(`live proxy on ${this.proxy.url}, events in ${this.proxy.eventsPath}`);
    this.render();
    void vscode.window.showInformationMessage(`Context Lens: live proxy on ${this.proxy.url}. Start claude in a new terminal to go through it.`);
  }

  private async stop(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    this.terminals.delete('ANTHROPIC_BASE_URL');
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
