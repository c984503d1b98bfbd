// "Context Lens: Start Live Proxy" / "Stop Live Proxy": the live proxy in the extension host for
// this workspace. While it runs, new terminals get ANTHROPIC_BASE_URL pointing at it (so `claude`
// started there goes through it) and the status bar says so; stopped, nothing points at it.
import * as vscode from 'vscode';
import { startLiveProxy, type LiveProxy } from '../../proxy';
import { Commands } from '../commands';

export class LiveProxyControl implements vscode.Disposable {
  private proxy: LiveProxy | undefined;
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 99);
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables = [
      this.item,
      vscode.commands.registerCommand(Commands.startLiveProxy, () => this.start()),
      vscode.commands.registerCommand(Commands.stopLiveProxy, () => this.stop()),
    ];
    // A previous window's variable must not point new terminals at a proxy that is gone.
    this.context.environmentVariableCollection.clear();
    this.render();
  }

  private async start(): Promise<void> {
    if (this.proxy) {
      void vscode.window.showInformationMessage(`Context Lens: the live proxy already runs on ${this.proxy.url}.`);
      return;
    }
    // Where the agent would have gone: the variable the window was started with, else the API.
    const started = await startLiveProxy({ env: process.env, ...(process.env.ANTHROPIC_BASE_URL ? { upstream: process.env.ANTHROPIC_BASE_URL } : {}), log: (line) => this.log.info(`proxy: ${line}`) });
    if (!started.ok) {
      void vscode.window.showErrorMessage(`Context Lens: the live proxy did not start: ${started.error}`);
      return;
    }
    this.proxy = started.value;
    const variables = this.context.environmentVariableCollection;
    variables.description = 'Context Lens live proxy: Claude Code started in this terminal sends its requests through it.';
    variables.replace('ANTHROPIC_BASE_URL', this.proxy.url);
    this.log.info(`live proxy on ${this.proxy.url}, events in ${this.proxy.eventsPath}`);
    this.render();
    void vscode.window.showInformationMessage(`Context Lens: live proxy on ${this.proxy.url}. Start claude in a new terminal to go through it.`);
  }

  private async stop(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    this.context.environmentVariableCollection.clear();
    this.render();
    if (proxy) await proxy.stop();
  }

  private render(): void {
    if (this.proxy) {
      this.item.text = '$(radio-tower) Live';
      this.item.tooltip = `Context Lens live proxy on ${this.proxy.url} (new terminals use it). Click to stop.`;
      this.item.command = Commands.stopLiveProxy;
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  dispose(): void {
    void this.stop();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
