// What a preview is computed from, and whether the preview on screen still matches it. Apply writes
// the preview's own result, so a preview whose inputs moved on (a keep pressed in the map, a setting,
// the agent's next turn) would write a plan the person no longer sees: it is computed again, or
// marked out of date until it is. Free of `vscode`.
import type { EngineOptionsInput } from '../../engine';
import type { Choices } from '../../protocol/messages';
import type { LiveSnapshot } from '../context/liveSnapshot';
import type { SummarizerSettings } from '../settings';
import { lastRecordOf } from './stale';

/** The inputs of a preview besides what the person set on it (its focus, an edited summary). */
export interface PreviewInputs {
  readonly snapshot: LiveSnapshot;
  readonly choices: Choices;
  /** The settings' engine knobs. */
  readonly engine: EngineOptionsInput;
  readonly summarizer: SummarizerSettings;
}

export interface Staleness {
  /** Completes "Out of date: …". */
  readonly why: string;
  /** Computed again at once: the person caused it, and it calls no model (the heuristic, or their own summary). */
  readonly recompute: boolean;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The same records of the same session (a re-read of an unchanged file makes a new, equal snapshot). */
function sameContext(a: LiveSnapshot, b: LiveSnapshot): boolean {
  return (
    a.live.session.path === b.live.session.path &&
    lastRecordOf(a.live) === lastRecordOf(b.live) &&
    a.context.items.length === b.context.items.length &&
    a.context.windowTokens === b.context.windowTokens
  );
}

/** Why the preview computed from `shown` no longer matches `now`, or null when it does. */
export function stalenessOf(shown: PreviewInputs, now: PreviewInputs | null, summaryEdited: boolean): Staleness | null {
  if (now === null) return { why: 'the session has no live context now', recompute: false };
  if (shown.snapshot.live.session.path !== now.snapshot.live.session.path) return { why: 'another session is followed now', recompute: false };
  // The agent may be mid-turn: computing on every record would move the preview under the reader's eyes.
  if (!sameContext(shown.snapshot, now.snapshot)) return { why: 'the agent wrote more to the session since this preview', recompute: false };
  const local = summaryEdited || now.summarizer.provider === 'heuristic';
  if (!same(shown.choices, now.choices)) return { why: 'your keep/drop/pin choices changed', recompute: local };
  if (!same(shown.engine, now.engine)) return { why: 'a compaction setting changed', recompute: local };
  if (!same(shown.summarizer, now.summarizer)) return { why: 'the summarizer setting changed', recompute: local };
  return null;
}
