// The shown preview's before ↔ after documents: built once per preview and loaded into VS Code a
// moment after it appears, so Open in Diff Editor opens at once.
import * as vscode from 'vscode';
import { Disposables } from '../disposables';
import type { DiffDocuments, DiffPair } from './DiffDocuments';
import { diffDocuments } from './preview';
import type { Shown } from './PreviewSession';

/**
 * How long a preview stays on screen before its diff documents are built and loaded: a burst of
 * keeps and drops recomputes the preview each time, and only the one that stays is worth loading.
 */
const DIFF_PREPARE_DELAY_MS = 300;

export class PreviewDiff extends Disposables {
  private pair: { previewId: string; pair: DiffPair } | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly diffs: DiffDocuments,
    /** The preview on screen when the delay ends (it may have changed meanwhile). */
    private readonly shown: () => Shown | null,
  ) {
    super();
    // A pending load stops with the window.
    this.onDispose(() => clearTimeout(this.timer));
  }

  /** Loads the shown preview's documents once it has stayed on screen a moment. */
  prepareSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const shown = this.shown();
      if (shown) this.pairOf(shown);
    }, DIFF_PREPARE_DELAY_MS);
  }

  async open(shown: Shown): Promise<void> {
    const pair = this.pairOf(shown);
    if (pair === null) return void vscode.window.showErrorMessage('Context Lens: this preview does not line up with its context — run Compact… again.');
    await this.diffs.show(pair, `Context Lens: before ↔ after${shown.preview.focus ? ` (${shown.preview.focus})` : ''}`);
  }

  /** The preview's diff documents, built once per preview; null when it does not line up with its context. */
  private pairOf({ preview, inputs, result }: Shown): DiffPair | null {
    if (this.pair?.previewId === preview.id) return this.pair.pair;
    const documents = diffDocuments(inputs.snapshot.context, result);
    if (documents === null) return null;
    this.pair = { previewId: preview.id, pair: this.diffs.prepare('preview', preview.id, documents.before, documents.after) };
    return this.pair.pair;
  }
}
