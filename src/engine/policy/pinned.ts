// The pinned block (S15, S17): hard constraints and open loops, kept out of reach of every tier.
// Extraction is deliberately literal — whole sentences the person wrote, never paraphrased — so the
// verifier can check their survival verbatim.

export interface PinnedEntry {
  text: string;
  /** Item the sentence was extracted from; undefined for user-configured entries. */
  sourceId?: number;
}

export interface PinnedSet {
  constraints: PinnedEntry[];
  openLoops: PinnedEntry[];
}

const CONSTRAINT = /\b(never|must|always|do not|don't|dont|must not|mustn't|shall not|under no circumstances|only ever)\b/i;
const OPEN_LOOP = /\bTODO\b|\bFIXME\b|\bopen question\b|\bstill (?:need|open|unresolved)\b/i;
/** Sentences longer than this are pasted material (logs, specs), not something to pin. */
const MAX_SENTENCE_CHARS = 400;

/** Lines first (lists, one rule per line), then sentence ends within a line. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z"'`(])/))
    .map((sentence) => sentence.trim().replace(/^[-*•]\s+|^\d+[.)]\s+/, ''))
    .filter((sentence) => sentence.length > 0 && sentence.length <= MAX_SENTENCE_CHARS);
}

export interface ExtractedPins {
  constraints: string[];
  openLoops: string[];
}

export function extractPins(text: string): ExtractedPins {
  const constraints: string[] = [];
  const openLoops: string[] = [];
  for (const sentence of sentencesOf(text)) {
    if (OPEN_LOOP.test(sentence)) openLoops.push(sentence);
    else if (CONSTRAINT.test(sentence)) constraints.push(sentence);
  }
  return { constraints, openLoops };
}

/** Whether a sentence (or, as a cheap first test, a whole text) holds an open-loop marker. */
export const isOpenLoop = (text: string): boolean => OPEN_LOOP.test(text);

/** How many open-loop markers a text holds: compared before/after by the verifier. */
export function countOpenLoops(text: string): number {
  return sentencesOf(text).filter((sentence) => OPEN_LOOP.test(sentence)).length;
}

/** Configured entries first (they are the person's deliberate choice), then extracted ones, deduplicated. */
export function buildPinnedSet(configured: readonly string[], extracted: readonly { id: number; pins: ExtractedPins }[]): PinnedSet {
  const seen = new Set<string>();
  const add = (list: PinnedEntry[], text: string, sourceId?: number): void => {
    const trimmed = text.trim();
    if (trimmed === '' || seen.has(trimmed)) return;
    seen.add(trimmed);
    list.push(sourceId === undefined ? { text: trimmed } : { text: trimmed, sourceId });
  };
  const set: PinnedSet = { constraints: [], openLoops: [] };
  for (const text of configured) add(set.constraints, text);
  for (const { id, pins } of extracted) {
    for (const text of pins.constraints) add(set.constraints, text, id);
    for (const text of pins.openLoops) add(set.openLoops, text, id);
  }
  return set;
}
