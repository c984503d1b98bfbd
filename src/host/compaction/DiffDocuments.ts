// Read-only `context-lens:` documents for VS Code's own diff editor: before and after of a preview
// or of a settings change Context Lens proposes.
// Documents are provided from memory; nothing is written to disk.
import * as vscode from 'vscode';
import { Disposables } from '../disposables';
import { firstChangedLine } from './firstChange';

export const DIFF_SCHEME = 'context-lens';

/** Two documents held here, ready for the diff editor. */
export interface DiffPair {
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
}

export class DiffDocuments extends Disposables implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  /** Each owner's newest pair (the preview's, the connector's): one owner's new pair never removes another's. */
  private readonly pairs = new Map<string, DiffPair>();
  /**
   * Right-hand documents whose diff this turned word wrap on for. VS Code keeps that choice on the
   * document while it stays open and applies it when the diff opens again, where a second toggle
   * would turn wrapping off.
   */
  private readonly wrapped = new Set<string>();

  constructor(private readonly log: vscode.LogOutputChannel) {
    super();
    this.own(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this));
    this.own(vscode.workspace.onDidCloseTextDocument((document) => this.wrapped.delete(document.uri.toString())));
    this.onDispose(() => {
      this.texts.clear();
      this.pairs.clear();
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /**
   * Holds the two texts and has VS Code load them as documents at once, so the diff editor opens on
   * documents it already has: the texts' trip to the workbench and the making of its models are off
   * the click's path (on the demo they were 0.5–1.1 s of the 3.7 s from click to text at load 13).
   * VS Code lets go of documents no editor shows after a few minutes; opening them later loads them again.
   * `fileName` picks the language VS Code highlights the two sides in. A context is plain text: VS
   * Code shows no text of a diff until the extensions for its language are active and the diff is
   * computed, and Markdown's activation held the demo's diff back (44 s against 17 s as plain text,
   * with four e2e runs sharing two cores).
   */
  prepare(owner: string, id: string, before: string, after: string, fileName = 'context.txt'): DiffPair {
    const old = this.pairs.get(owner);
    if (old) for (const uri of [old.left, old.right]) this.texts.delete(uri.toString());
    const pair = {
      left: vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/before/${fileName}` }),
      right: vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/after/${fileName}` }),
    };
    this.texts.set(pair.left.toString(), before);
    this.texts.set(pair.right.toString(), after);
    this.pairs.set(owner, pair);
    // Nothing waits for these: a failure here only means the diff editor loads them itself.
    const asked = performance.now();
    void Promise.all([pair.left, pair.right].map((uri) => vscode.workspace.openTextDocument(uri))).then(
      () => this.log.info(`Diff documents ${id} loaded in ${Math.round(performance.now() - asked)} ms`),
      () => undefined,
    );
    return pair;
  }

  /** Opens the pair in the diff editor. Long lines are wrapped rather than clipped at the right edge. */
  async show({ left, right }: DiffPair, title: string): Promise<void> {
    const loaded = [left, right].every((uri) => vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString()));
    const asked = performance.now();
    // Open at the first change, not where VS Code's reveal or a reflow leaves the viewport.
    const line = firstChangedLine(this.texts.get(left.toString()) ?? '', this.texts.get(right.toString()) ?? '');
    const first = new vscode.Range(line, 0, line, 0);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, selection: first });
    // VS Code resolves the command once the diff is computed and its text shown: the figure to watch.
    this.log.info(
      `Diff editor "${title}" opened in ${Math.round(performance.now() - asked)} ms (documents ${loaded ? 'loaded beforehand' : 'loaded on opening'})`,
    );
    if (!(await shown(right))) return;
    // Keyboard focus may still be in the panel's webview, and the diff is what the person reads next
    // (the toggle, too, acts on the focused editor).
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    if (!wrapsAlready() && !this.wrapped.has(right.toString())) {
      // The workbench moves focus asynchronously (the extension host learns of it later), so the toggle
      // waits for it to land.
      await new Promise((resolve) => setTimeout(resolve, FOCUS_SETTLE_MS));
      await vscode.commands.executeCommand('editor.action.toggleWordWrap');
      this.wrapped.add(right.toString());
    }
    // Wrapping reflows the text under the viewport: bring the first change back near the top, one
    // unchanged line above it, so a block removed on the left shows from its start.
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.uri.toString() === right.toString()) {
      editor.selection = new vscode.Selection(first.start, first.start);
      const above = Math.max(0, line - 1);
      editor.revealRange(new vscode.Range(above, 0, above, 0), vscode.TextEditorRevealType.AtTop);
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
  const isIt = (editor: vscode.TextEditor | undefined): boolean =>
    editor !== undefined && editor.document.uri.toString() === uri.toString() && editor.visibleRanges.length > 0;
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
