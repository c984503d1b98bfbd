// Runs a summarizer under a deadline and falls back to the heuristic on any failure, reporting which
// one produced the text and why the preferred one did not (S9: "say so in the result"). Whatever
// the summarizer returns is redacted here: a model or the extractive heuristic may quote an error
// line that holds a key.
import { redactSecretsWithCounts } from '../redact';
import { HeuristicSummarizer } from './heuristic';
import type { SummaryBuilder } from './template';
import { errorText, type Summarizer, type SummaryRequest } from './types';

export interface SummaryOutcome {
  text: string;
  /** Name of the summarizer whose text is used. */
  summarizer: string;
  fellBack: boolean;
  /** Why the preferred summarizer's text is not used (redacted too: it may quote the provider's reply). */
  error?: string;
  durationMs: number;
  /** Secrets masked in `text`. */
  redactions: number;
}

export async function runSummarizer(
  summarizer: Summarizer,
  request: SummaryRequest,
  options: { timeoutMs: number; signal?: AbortSignal; builder?: SummaryBuilder },
): Promise<SummaryOutcome> {
  const outcome = await runUnredacted(summarizer, request, options);
  const { text, count } = redactSecretsWithCounts(outcome.text);
  return { ...outcome, text, redactions: count, ...(outcome.error !== undefined ? { error: redactSecretsWithCounts(outcome.error).text } : {}) };
}

async function runUnredacted(
  summarizer: Summarizer,
  request: SummaryRequest,
  options: { timeoutMs: number; signal?: AbortSignal; builder?: SummaryBuilder },
): Promise<Omit<SummaryOutcome, 'redactions'>> {
  const started = performance.now();
  const heuristic = new HeuristicSummarizer(options.builder);
  // The heuristic cannot fail short of a bug (which then propagates and the compaction fails open).
  const fallback = async (error: string): Promise<Omit<SummaryOutcome, 'redactions'>> => {
    const result = await heuristic.summarize(request);
    return { text: result.ok ? result.value : '', summarizer: heuristic.name, fellBack: true, error, durationMs: performance.now() - started };
  };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<{ ok: false; error: string }>((resolve) => {
    timer = setTimeout(() => {
      // Settle first: a summarizer that resolves synchronously on abort must not win the race.
      resolve({ ok: false, error: `${summarizer.name} timed out after ${options.timeoutMs} ms` });
      controller.abort(new Error('timeout'));
    }, options.timeoutMs);
  });
  try {
    const result = await Promise.race([summarizer.summarize(request, controller.signal), deadline]);
    if (result.ok) return { text: result.value, summarizer: summarizer.name, fellBack: false, durationMs: performance.now() - started };
    return await fallback(result.error);
  } catch (error) {
    return await fallback(`${summarizer.name}: ${errorText(error)}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
