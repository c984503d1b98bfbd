// Epistemic markers (S16, seed 000): hedges and self-corrections ("wait", "actually", "let me
// reconsider") carry reasoning the model needs; stripping them measurably hurts hard tasks. Messages
// dense in them are kept verbatim; when one is compacted anyway its markers are named in the summary.
// Every hit carries offsets so the UI can highlight it in place.
import type { TaskComplexity } from '../options';

export interface MarkerHit {
  /** The marker as listed below, lower case (the label shown in reasons and summaries). */
  phrase: string;
  start: number;
  end: number;
}

/**
 * Longest phrases first so "but wait" is one marker, not "wait". The seed also lists bare "check"
 * and "verify"; in coding transcripts they describe routine actions ("let me check the file") far
 * more often than doubt, so only their explicitly self-critical forms are kept.
 */
const PHRASES = [
  'let me reconsider',
  'on second thought',
  'i was wrong',
  "i'm not sure",
  'i am not sure',
  'but wait',
  'actually no',
  'hold on',
  'let me verify',
  'double-check',
  'double check',
  'reconsider',
  'alternatively',
  'uncertain',
  'perhaps',
  'actually',
  'wait',
  'hmm',
  'hm',
  'ah',
];

const MARKER_PATTERN = new RegExp(`\\b(?:${PHRASES.map((phrase) => phrase.replace(/[-']/g, (c) => `\\${c}`).replace(/ /g, '\\s+')).join('|')})\\b`, 'gi');

export function findEpistemicMarkers(text: string): MarkerHit[] {
  const hits: MarkerHit[] = [];
  for (const match of text.matchAll(MARKER_PATTERN)) {
    const start = match.index ?? 0;
    hits.push({ phrase: match[0].toLowerCase().replace(/\s+/g, ' ').replace('double check', 'double-check'), start, end: start + match[0].length });
  }
  return hits;
}

/** Distinct marker phrases in order of first appearance: density is counted in these. */
export function distinctPhrases(hits: readonly MarkerHit[]): string[] {
  return [...new Set(hits.map((hit) => hit.phrase))];
}

/** Seed 000: routine tasks tolerate concise reasoning (≥ 3 markers to keep); complex ones do not (≥ 1). */
export function markerThreshold(complexity: TaskComplexity, override = 0): number {
  if (override > 0) return override;
  return complexity === 'complex' || complexity === 'epic' ? 1 : 3;
}

/** "3 second thoughts: wait · actually · reconsider" (a reason the panel shows: plain words, not the policy's name). */
export function describeMarkers(phrases: readonly string[]): string {
  return `${phrases.length} second thought${phrases.length === 1 ? '' : 's'}: ${phrases.join(' · ')}`;
}
