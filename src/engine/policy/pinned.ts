// The pinned block (S15, S17): hard constraints and open loops, kept out of reach of every tier.
// Extraction is deliberately literal — whole sentences the person wrote, never paraphrased — so the
// verifier can check their survival verbatim. A later sentence that revokes a constraint ("Forget
// the Node 18 rule") wins: the constraint moves to `revoked` and is no longer pinned.
import { revocationOf, revokes, type Revocation } from './revoke';

export interface PinnedEntry {
  text: string;
  /** Item the sentence was extracted from; undefined for user-configured entries. */
  sourceId?: number;
}

export interface RevokedEntry extends PinnedEntry {
  /** The later sentence that revoked it. */
  by: string;
}

export interface PinnedSet {
  constraints: PinnedEntry[];
  openLoops: PinnedEntry[];
  /** Constraints a later instruction cancelled: never presented as constraints again. */
  revoked?: RevokedEntry[];
}

const CONSTRAINT = /\b(never|must|always|do not|don't|dont|must not|mustn't|shall not|under no circumstances|only ever)\b/i;
/** "Keep the public signatures unchanged", "Leave config/ alone", "Keep Node 18 compatibility": an imperative to preserve. */
const PRESERVE = /^(?:please\s+)?(?:keep|leave|preserve|stay)\b.*\b(?:unchanged|untouched|intact|as is|alone|compatib\w*|backwards?[- ]compatible|stable)\b/i;
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
  /** Sentences cancelling an earlier constraint; applied to what came before them. */
  revocations?: Revocation[];
}

export function extractPins(text: string): ExtractedPins {
  const constraints: string[] = [];
  const openLoops: string[] = [];
  const revocations: Revocation[] = [];
  for (const sentence of sentencesOf(text)) {
    const revocation = revocationOf(sentence);
    if (revocation) revocations.push(revocation);
    else if (OPEN_LOOP.test(sentence)) openLoops.push(sentence);
    else if (isConstraint(sentence)) constraints.push(sentence);
  }
  return revocations.length > 0 ? { constraints, openLoops, revocations } : { constraints, openLoops };
}

export const isConstraint = (sentence: string): boolean => CONSTRAINT.test(sentence) || PRESERVE.test(sentence);

/** Whether a sentence (or, as a cheap first test, a whole text) holds an open-loop marker. */
export const isOpenLoop = (text: string): boolean => OPEN_LOOP.test(text);

/** How many open-loop markers a text holds: compared before/after by the verifier. */
export function countOpenLoops(text: string): number {
  return sentencesOf(text).filter((sentence) => OPEN_LOOP.test(sentence)).length;
}

/**
 * Configured entries first (they are the person's deliberate choice), then extracted ones in order,
 * deduplicated. A revocation cancels the extracted constraints before it (a configured one is a
 * setting, changed where it is set); the same rule said again afterwards is pinned again.
 */
export function buildPinnedSet(configured: readonly string[], extracted: readonly { id: number; pins: ExtractedPins }[]): PinnedSet {
  const seen = new Set<string>();
  const add = (list: PinnedEntry[], text: string, sourceId?: number): void => {
    const trimmed = text.trim();
    if (trimmed === '' || seen.has(trimmed)) return;
    seen.add(trimmed);
    list.push(sourceId === undefined ? { text: trimmed } : { text: trimmed, sourceId });
  };
  const set: PinnedSet = { constraints: [], openLoops: [], revoked: [] };
  for (const text of configured) add(set.constraints, text);
  for (const { id, pins } of extracted) {
    for (const text of pins.constraints) add(set.constraints, text, id);
    for (const text of pins.openLoops) add(set.openLoops, text, id);
    for (const revocation of pins.revocations ?? []) {
      const cancelled = set.constraints.filter((entry) => entry.sourceId !== undefined && revokes(revocation, entry.text));
      for (const entry of cancelled) {
        seen.delete(entry.text);
        set.revoked = [...(set.revoked ?? []).filter((old) => old.text !== entry.text), { ...entry, by: revocation.text }];
      }
      set.constraints = set.constraints.filter((entry) => !cancelled.includes(entry));
    }
  }
  // A rule pinned again after its revocation is live again.
  set.revoked = (set.revoked ?? []).filter((entry) => !set.constraints.some((live) => live.text === entry.text));
  return set;
}
