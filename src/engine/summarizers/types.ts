// One interface for every summarizer (S9, S25). Results are explicit values, never exceptions, so
// the caller can fall back to the heuristic and say why; the signal carries the timeout.
import type { ContextItem } from '../model';
import type { PinnedSet } from '../policy/pinned';
import type { Result } from '../../base/result';

export interface SummaryRequest {
  /** The aged span, oldest first. */
  items: ContextItem[];
  /**
   * Items after the span's start that stay in the context (the recent window, kept messages): the
   * latest word on what the span left open may be there, and the summary must not contradict it.
   */
  later?: ContextItem[];
  /** Text of the summary being merged (iterative mode, S10). */
  previousSummary?: string;
  focus: string;
  pinned: PinnedSet;
  /** Marker phrases of span items compacted despite them (S16). */
  markers: { itemId: number; phrases: string[] }[];
  originalAsk?: string;
  /** The agent's working directory, when known: file paths in the summary are relative to it. */
  workspace?: string;
  maxTokens: number;
  /** Complete instruction + transcript for LLM summarizers (see prompt.ts). */
  prompt: string;
}

/** The summary's text, or why there is none. */
export type SummarizerResult = Result<string>;

export interface Summarizer {
  readonly name: string;
  summarize(request: SummaryRequest, signal: AbortSignal): Promise<SummarizerResult>;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
