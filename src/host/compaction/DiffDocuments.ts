// Read-only `context-lens:` documents for VS Code's own diff editor: before and after of a preview
// or of a settings change Context Lens proposes.
// Documents are provided from memory; nothing is written to disk.
import * as vscode from 'vscode';

export const DIFF_SCHEME = 'context-lens';

export class DiffDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** `fileName` picks the language VS Code highlights the two sides in. */
  async show(id: string, before: string, after: string, title: string, fileName = 'context.txt'): Promise<void> {
    // Only the newest pair is kept: older previews cannot be opened from the panel any more.
    this.texts.clear();
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/before/${fileName}` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/after/${fileName}` });
    this.texts.set(left.toString(), before);
    this.texts.set(right.toString(), after);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
