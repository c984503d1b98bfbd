// Keeps every open Context Lens surface (the panel-area view and the editor tab) showing the
// same state: the newest PanelState is pushed to each connection as it changes.
import * as vscode from 'vscode';
import type { PanelState, WebviewCommand } from '../../protocol/messages';
import { WebviewConnection } from './WebviewConnection';

export class PanelHub implements vscode.Disposable {
  private readonly connections = new Set<WebviewConnection>();
  private state: PanelState;

  constructor(
    initial: PanelState,
    private readonly runCommand: (command: WebviewCommand) => void,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.state = initial;
  }

  /** Connects a webview; the returned disposable detaches it (call when the webview goes away). */
  attach(webview: vscode.Webview): vscode.Disposable {
    const connection = new WebviewConnection(webview, {
      onCommand: this.runCommand,
      onReady: () => connection.post({ type: 'state', state: this.state }),
      log: this.log,
    });
    this.connections.add(connection);
    return new vscode.Disposable(() => {
      this.connections.delete(connection);
      connection.dispose();
    });
  }

  update(state: PanelState): void {
    this.state = state;
    for (const connection of this.connections) connection.post({ type: 'state', state });
  }

  dispose(): void {
    for (const connection of this.connections) connection.dispose();
    this.connections.clear();
  }
}
