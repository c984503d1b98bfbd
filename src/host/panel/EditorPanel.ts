// The same panel opened as an editor tab, for a bigger canvas. One tab at a time.
import * as vscode from 'vscode';
import type { PanelHub } from './PanelHub';
import { renderWebviewHtml, webviewOptions } from './webviewHtml';
import { Disposables } from '../disposables';

export class EditorPanel extends Disposables {
  private panel: vscode.WebviewPanel | undefined;
  private attachment: vscode.Disposable | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hub: PanelHub,
  ) {
    super();
    // Closing the tab detaches it from the hub (onDidDispose below).
    this.onDispose(() => this.panel?.dispose());
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel('contextLens.editor', 'Context Lens', vscode.ViewColumn.Active, {
      ...webviewOptions(this.extensionUri),
      retainContextWhenHidden: false,
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'context-lens.svg');
    this.attachment = this.hub.attach(panel.webview);
    panel.webview.html = renderWebviewHtml(panel.webview, this.extensionUri, 'editor');
    panel.onDidDispose(() => {
      this.attachment?.dispose();
      this.attachment = undefined;
      this.panel = undefined;
    });
    this.panel = panel;
  }
}
