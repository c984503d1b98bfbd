// One Compact… run without the UI: what it hands the engine (shared with the live plan, so the region
// map shows what Compact… would do) and what comes of it — a preview, or nothing when the person
// cancelled. Free of `vscode`.
import { compact, type Archive, type CompactionResult, type Context, type EngineOptionsInput, type Summarizer } from '../../engine';
import type { Choices, Preview } from '../../protocol/messages';
import { NO_CHOICES, withChoices } from '../context/choices';
import { previewOf } from './preview';

/** Compact… is a manual compaction: the full ladder, steered by the focus instructions and the person's choices. */
export function compactOptionsOf(engine: EngineOptionsInput, focus: string, choices: Choices = NO_CHOICES): EngineOptionsInput {
  return { ...withChoices(engine, choices), trigger: 'manual', focus };
}

export interface RunInput {
  id: string;
  focus: string;
  /** The settings' engine knobs. */
  engine: EngineOptionsInput;
  summarizer: { name: string; summarizer: Summarizer };
  context: Context;
  archive: Archive;
  signal: AbortSignal;
  /** Kept / dropped items and pinned sentences from the map. */
  choices?: Choices;
  /** The person's own summary text (edited in the preview), used instead of the summarizer's. */
  summaryOverride?: string | null;
}

export type RunOutcome = { cancelled: true; result: CompactionResult } | { cancelled: false; result: CompactionResult; preview: Preview };

export async function runCompaction({
  id,
  focus,
  engine,
  summarizer,
  context,
  archive,
  signal,
  choices = NO_CHOICES,
  summaryOverride,
}: RunInput): Promise<RunOutcome> {
  const options = { ...compactOptionsOf(engine, focus, choices), ...(summaryOverride ? { summaryOverride } : {}) };
  const result = await compact(context, options, { summarizer: summarizer.summarizer, archive, signal });
  // Aborting only stops the summarizer, which then falls back to the heuristic: that result is not
  // what the person asked for, and they asked for nothing more.
  if (signal.aborted) return { cancelled: true, result };
  return { cancelled: false, result, preview: previewOf({ id, focus, summarizer: summarizer.name, context, result, choices }) };
}
