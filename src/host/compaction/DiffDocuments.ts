// Read-only `context-lens:` documents for VS Code's own diff editor: before and after of a preview
// or of a settings change Context Lens proposes.
// Documents are provided from memory; nothing is written to disk.
import * as vscode from 'vscode';
import { Disposables } from '../disposables';

export const DIFF_SCHEME = 'context-lens';

export class DiffDocuments extends Disposables implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  constructor() {
    super();
    this.own(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this));
    this.onDispose(() => this.texts.clear());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /**
   * `fileName` picks the language VS Code highlights the two sides in. A context is plain text: VS
   * Code shows no text of a diff until the extensions for its language are active and the diff is
   * computed, and Markdown's activation held the demo's diff back (44 s against 17 s as plain text,
   * with four e2e runs sharing two cores). Long lines are wrapped rather than clipped at the right edge.
   */
  async show(id: string, before: string, after: string, title: string, fileName = 'context.txt'): Promise<void> {
    // Only the newest pair is kept: older previews cannot be opened from the panel any more.
    this.texts.clear();
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/before/${fileName}` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/after/${fileName}` });
    this.texts.set(left.toString(), before);
    this.texts.set(right.toString(), after);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
    // The toggle acts on the focused editor: wait until the new diff's right side is shown.
    if (!wrapsAlready() && (await shown(right))) {
      // Keyboard focus may still be in the panel's webview. The workbench moves it asynchronously
      // (the extension host learns of it later), so the toggle waits for the focus to land.
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await new Promise((resolve) => setTimeout(resolve, FOCUS_SETTLE_MS));
      await vscode.commands.executeCommand('editor.action.toggleWordWrap');
    }
  }

}

/** Whether the diff editor wraps by the person's own settings (toggling would then turn it off). */
function wrapsAlready(): boolean {
  const diff = vscode.workspace.getConfiguration('diffEditor').get<string>('wordWrap', 'inherit');
  if (diff !== 'inherit') return diff === 'on';
  return vscode.workspace.getConfiguration('editor').get<string>('wordWrap', 'off') !== 'off';
}

/**
 * Time for the workbench to move keyboard focus into the editor. No API reports that focus landed;
 * until it does, the toggle acts on whichever editor had focus (a simple widget such as the quick input cannot
 * wrap, so nothing happens). 300 ms was too short on a loaded 2-core machine; 1 s was enough in every run.
 */
const FOCUS_SETTLE_MS = 1_000;

/**
 * Waits until the given document is the active editor and laid out (it has visible ranges).
 * Event-driven with a generous bound: on a busy machine the diff editor can take seconds to open,
 * and toggling before that would act on another editor, or none, and leave the diff clipped.
 */
function shown(uri: vscode.Uri, timeoutMs = 15_000): Promise<boolean> {
  const isIt = (editor: vscode.TextEditor | undefined): boolean => editor !== undefined && editor.document.uri.toString() === uri.toString() && editor.visibleRanges.length > 0;
  if (isIt(vscode.window.activeTextEditor)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean): void => {
      clearTimeout(timer);
      for (const subscription of subscriptions) subscription.dispose();
      resolve(value);
    };
    const check = (): unknown => isIt(vscode.window.activeTextEditor) && done(true);
    const subscriptions = [vscode.window.onDidChangeActiveTextEditor(check), vscode.window.onDidChangeTextEditorVisibleRanges(check)];
    const timer = setTimeout(() => done(isIt(vscode.window.activeTextEditor)), timeoutMs);
  });
}
