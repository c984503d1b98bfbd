// The preview on screen and the one rule that makes it trustworthy: the preview is Apply. Every
// change of its inputs is checked against the inputs it was computed from; a change the person made
// that calls no model computes it again at once, any other marks it out of date (Apply refused, a
// Refresh offered). Apply is granted only for the preview shown, computed from the inputs as they are
// now. The computing itself (summarizer, progress, archive) is the caller's. Free of `vscode`.
import type { Result } from '../../base/result';
import type { StagedArchive } from '../../archive/fileArchive';
import type { CompactionResult } from '../../engine';
import type { Preview } from '../../protocol/messages';
import { stalenessOf, type PreviewInputs } from './previewInputs';

/** What the person set on a preview, kept when it is computed again. */
export interface PreviewRequest {
  readonly focus: string;
  /** Their own summary text, used instead of the summarizer's; null for the summarizer's. */
  readonly summaryOverride: string | null;
}

/** A computed preview and what Apply needs to write exactly it. */
export interface Computed {
  readonly preview: Preview;
  readonly result: CompactionResult;
  /** The pre-compaction context, written to disk only when the preview is applied. */
  readonly archive: StagedArchive;
}

export interface Shown extends Computed {
  readonly request: PreviewRequest;
  readonly inputs: PreviewInputs;
}

export interface PreviewSessionDeps {
  /** The inputs a preview computed now would use; null without a live context. */
  inputs(): PreviewInputs | null;
  /**
   * Computes a preview; null when none came of it (cancelled, no summarizer: the caller said why).
   * `automatic`: a recomputation nobody clicked for, to be shown quietly.
   */
  compute(request: PreviewRequest, inputs: PreviewInputs, automatic: boolean): Promise<Computed | null>;
  publish(preview: Preview | null): void;
}

export type ShowOutcome = 'shown' | 'none' | 'busy' | 'noContext';
/** The preview to apply, or why not (null: a click the person need not hear about). */
export type ApplyGrant = Result<Shown, string | null>;

export class PreviewSession {
  private current: Shown | null = null;
  /** A computation or an Apply is under way: input changes are checked once it ends. */
  private busy: 'computing' | 'applying' | null = null;

  constructor(private readonly deps: PreviewSessionDeps) {}

  get shown(): Shown | null {
    return this.current;
  }

  get computing(): boolean {
    return this.busy === 'computing';
  }

  /** Computes a preview from the inputs as they are now and shows it. */
  async show(request: PreviewRequest, automatic = false): Promise<ShowOutcome> {
    if (this.busy !== null) return 'busy';
    const inputs = this.deps.inputs();
    if (inputs === null) return 'noContext';
    this.busy = 'computing';
    let computed: Computed | null;
    try {
      computed = await this.deps.compute(request, inputs, automatic);
    } finally {
      this.busy = null;
    }
    if (computed) {
      this.current = { ...computed, request, inputs };
      this.deps.publish(computed.preview);
    } else if (this.current?.preview.stale?.refreshing) {
      this.mark({ ...this.current.preview.stale, refreshing: false });
    }
    // Inputs may have moved while it computed.
    this.inputsChanged();
    return computed ? 'shown' : 'none';
  }

  /** Computes the preview shown again with the same focus and summary (the Refresh button). */
  refresh(previewId: string): Promise<ShowOutcome> {
    const shown = this.current;
    if (shown === null || shown.preview.id !== previewId || shown.preview.applied || this.busy !== null) return Promise.resolve('none');
    // Said at once: the button goes, the banner says it is being computed.
    if (shown.preview.stale) this.mark({ ...shown.preview.stale, refreshing: true });
    return this.show(shown.request);
  }

  /** The person's own summary (or back to the summarizer's with null): computed again, then verified. */
  editSummary(previewId: string, text: string | null): Promise<ShowOutcome> {
    const shown = this.current;
    if (shown === null || shown.preview.id !== previewId || shown.preview.applied) return Promise.resolve('none');
    return this.show({ ...shown.request, summaryOverride: text });
  }

  /** Something a preview depends on may have changed: recompute, mark out of date, or (changed back) fresh again. */
  inputsChanged(): void {
    const shown = this.current;
    if (shown === null || this.busy !== null) return;
    const now = this.deps.inputs();
    // The panel follows another session now (the fork after Apply, or the person's pick): a preview
    // of the one before would sit next to the new session's gauge and map, so it goes.
    if (now !== null && now.snapshot.live.session.path !== shown.inputs.snapshot.live.session.path) {
      this.clear();
      return;
    }
    if (shown.preview.applied) return;
    const staleness = stalenessOf(shown.inputs, now, shown.request.summaryOverride !== null);
    if (staleness === null) {
      if (shown.preview.stale) this.mark(null);
      return;
    }
    this.mark({ why: staleness.why, refreshing: staleness.recompute });
    if (staleness.recompute) void this.show(shown.request, true);
  }

  /**
   * Apply of the preview `previewId`: granted only for the preview shown, not out of date, nothing
   * computing. The error is null for a click the person need not hear about (an older preview's button).
   */
  beginApply(previewId: string): ApplyGrant {
    const shown = this.current;
    if (shown === null || shown.preview.id !== previewId || shown.preview.applied) return { ok: false, error: null };
    if (this.busy === 'applying') return { ok: false, error: null };
    if (this.busy === 'computing') return { ok: false, error: 'the preview is being computed again — apply it once it is shown.' };
    const staleness = stalenessOf(shown.inputs, this.deps.inputs(), shown.request.summaryOverride !== null);
    if (staleness !== null) {
      this.inputsChanged();
      return { ok: false, error: `the preview is out of date (${staleness.why}) — refresh it, then apply.` };
    }
    this.busy = 'applying';
    return { ok: true, value: shown };
  }

  /** Apply ended: with the applied preview when the fork was written. */
  endApply(applied: Preview | null): void {
    this.busy = null;
    if (applied && this.current) {
      this.current = { ...this.current, preview: applied };
      this.deps.publish(applied);
    }
    this.inputsChanged();
  }

  clear(): void {
    this.current = null;
    this.deps.publish(null);
  }

  private mark(stale: Preview['stale']): void {
    // The agent may append many records to a preview already out of date: one re-render is enough.
    if (this.current === null || JSON.stringify(this.current.preview.stale) === JSON.stringify(stale)) return;
    this.current = { ...this.current, preview: { ...this.current.preview, stale } };
    this.deps.publish(this.current.preview);
  }
}
