// Importance (S23, seed 000): a TF-IDF proxy for surprisal. Words the session uses everywhere say
// little; words only one message uses are what is hard to reconstruct from a summary. Each message
// (the person's and the agent's text) scores the mean TF-IDF of its rarest words, scaled to 0–1
// within the session. When the summary tier has room left under the target, the most important
// messages of its span stay verbatim; under budget pressure (the context far above its target,
// S24) only the very top ones do.
import type { ContextItem } from '../model';

export interface Importance {
  /** 0–1, relative to the most important message of the session. */
  score: number;
  /** The words that made it important (rarest first), for the item's reason. */
  terms: string[];
}

const WORD = /\p{L}[\p{L}\p{N}_]{2,}/gu;
const SCORED = new Set(['user', 'assistant', 'thinking']);
/** Words per message that make its score: its most surprising ones, not its length. */
const TOP = 8;
/** Only the opening of a huge text is scored. */
const MAX_CHARS = 20_000;

function words(text: string): string[] {
  return text.slice(0, MAX_CHARS).toLowerCase().match(WORD) ?? [];
}

/** Scores of the conversational items; tool outputs count as documents for the rarity of words. */
export function importanceOf(items: readonly ContextItem[]): Map<number, Importance> {
  const documents = items.filter((item) => item.kind !== 'system' && item.kind !== 'tools');
  const df = new Map<string, number>();
  const counts = new Map<number, Map<string, number>>();
  for (const item of documents) {
    const tf = new Map<string, number>();
    for (const word of words(item.text)) tf.set(word, (tf.get(word) ?? 0) + 1);
    for (const word of tf.keys()) df.set(word, (df.get(word) ?? 0) + 1);
    if (SCORED.has(item.kind)) counts.set(item.id, tf);
  }
  const raw = new Map<number, { value: number; terms: string[] }>();
  for (const [id, tf] of counts) {
    const total = [...tf.values()].reduce((sum, count) => sum + count, 0);
    const weighted = [...tf]
      .map(([word, count]) => ({ word, weight: (count / Math.max(1, total)) * Math.log(documents.length / (df.get(word) ?? 1)) }))
      .sort((a, b) => b.weight - a.weight);
    const top = weighted.slice(0, TOP);
    // Short messages are not rare for being short: the mean is over TOP slots, filled or not.
    raw.set(id, { value: top.reduce((sum, entry) => sum + entry.weight, 0) / TOP, terms: top.slice(0, 3).map((entry) => entry.word) });
  }
  const max = Math.max(0, ...[...raw.values()].map((entry) => entry.value));
  const scores = new Map<number, Importance>();
  for (const [id, entry] of raw) scores.set(id, { score: max > 0 ? entry.value / max : 0, terms: entry.terms });
  return scores;
}

/** The score an item needs to stay verbatim inside a summarised span; higher under budget pressure. */
export function keepThreshold(totalTokens: number, targetTokens: number): number {
  return totalTokens > 2 * targetTokens ? 0.85 : 0.6;
}

export function describeImportance(importance: Importance): string {
  return `importance ${importance.score.toFixed(2)}${importance.terms.length > 0 ? ` (rare words: ${importance.terms.join(', ')})` : ''}`;
}
