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

  /**
   * `fileName` picks the language VS Code highlights the two sides in: a context reads as Markdown
   * (headings per item, the summary's own Markdown), a settings file as JSON. Long lines (tool
   * output, one-line JSON) are wrapped rather than clipped at the right edge.
   */
  async show(id: string, before: string, after: string, title: string, fileName = 'context.md'): Promise<void> {
    // Only the newest pair is kept: older previews cannot be opened from the panel any more.
    this.texts.clear();
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/before/${fileName}` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/after/${fileName}` });
    this.texts.set(left.toString(), before);
    this.texts.set(right.toString(), after);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
    // The toggle acts on the focused editor: wait (briefly) until that is the new diff's right side.
    if (!wrapsAlready() && (await focused(right))) {
      // The toggle acts on the editor with keyboard focus, which may still be the panel's webview.
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await vscode.commands.executeCommand('editor.action.toggleWordWrap');
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}

/** Whether the diff editor wraps by the person's own settings (toggling would then turn it off). */
function wrapsAlready(): boolean {
  const diff = vscode.workspace.getConfiguration('diffEditor').get<string>('wordWrap', 'inherit');
  if (diff !== 'inherit') return diff === 'on';
  return vscode.workspace.getConfiguration('editor').get<string>('wordWrap', 'off') !== 'off';
}

async function focused(uri: vscode.Uri, timeoutMs = 2_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()) return true;
  }
  return false;
}
