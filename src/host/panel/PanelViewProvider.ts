// The Context Lens view in the panel area (next to Terminal/Problems).
import * as vscode from 'vscode';
import type { PanelHub } from './PanelHub';
import { renderWebviewHtml, webviewOptions } from './webviewHtml';
import { Disposables } from '../disposables';

export const PANEL_VIEW_ID = 'contextLens.panel';

export class PanelViewProvider extends Disposables implements vscode.WebviewViewProvider {
  private attachment: vscode.Disposable | undefined;
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hub: PanelHub,
  ) {
    super();
    this.onDispose(() => this.attachment?.dispose());
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.attachment?.dispose();
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    this.attachment = this.hub.attach(view.webview);
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri, 'view');
    view.onDidDispose(() => {
      this.attachment?.dispose();
      this.attachment = undefined;
      this.view = undefined;
    });
  }

  reveal(): void {
    if (this.view) this.view.show(false);
    else void vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
  }
}
