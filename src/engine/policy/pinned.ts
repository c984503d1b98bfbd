// The pinned block (S15, S17): the person's rules, requests and open loops, kept out of reach of
// every tier. Extraction is deliberately literal — whole sentences the person wrote, never
// paraphrased — so the verifier can check their survival verbatim. What the person typed is read by
// the sentence classifier (classify.ts); text they did not write (an agent's own summary, the
// agent's replies) only by its explicit markers. A later sentence that revokes a rule ("Forget the
// Node 18 rule") wins: the rule moves to `revoked` and is no longer pinned.
import { classifySentence, hasRuleKeyword, MAX_SENTENCE_CHARS, type TagBudget } from './classify';
import { permissionOf, revocationOf, revokes, type Revocation } from './revoke';
import { splitClauses } from './sentences';

export interface PinnedEntry {
  text: string;
  /** Item the sentence was extracted from; undefined for user-configured entries. */
  sourceId?: number;
}

export interface RevokedEntry extends PinnedEntry {
  /** The later sentence that revoked it. */
  by: string;
  /** The item that sentence was typed in. */
  byId?: number;
}

export interface PinnedSet {
  /** Rules and decisions. */
  constraints: PinnedEntry[];
  openLoops: PinnedEntry[];
  /** What the person asked for: kept verbatim with the rest once their prompt is summarised. */
  requests?: PinnedEntry[];
  /** Constraints a later instruction cancelled: never presented as constraints again. */
  revoked?: RevokedEntry[];
}

/** The explicit open-loop markers: what the verifier counts before and after, and all an agent's text is read for. */
const OPEN_LOOP = /\bTODO\b|\bFIXME\b|\bopen question\b|\bstill (?:need|open|unresolved)\b/i;

/** Lines first (lists, one rule per line), then sentence ends within a line; long ones too. */
export function allSentencesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z"'`(])/))
    .map((sentence) => sentence.trim().replace(/^[-*\u2022]\s+|^\d+[.)]\s+/, ''))
    .filter((sentence) => sentence.length > 0);
}

/** The sentences a person could have typed as one: longer is pasted material. */
export function sentencesOf(text: string): string[] {
  return allSentencesOf(text).filter((sentence) => sentence.length <= MAX_SENTENCE_CHARS);
}

export interface ExtractedPins {
  constraints: string[];
  openLoops: string[];
  requests?: string[];
  /** Sentences cancelling an earlier rule; applied to what came before them. */
  revocations?: Revocation[];
}

/** The rules, decisions, requests, open loops and revocations in a text the person typed. */
export function extractPins(text: string, budget?: TagBudget): ExtractedPins {
  const pins = { constraints: [] as string[], openLoops: [] as string[], requests: [] as string[], revocations: [] as Revocation[] };
  for (const sentence of sentencesOf(text).flatMap((whole) => pinUnits(whole, (part) => kindOf(classifySentence(part))))) {
    const role = classifySentence(sentence, budget);
    const revocation = role === 'revocation' ? revocationOf(sentence) : undefined;
    // A permission ("Go ahead: remove the retry loops") is also what it asks for: both are kept.
    const permission = revocation ? undefined : permissionOf(sentence);
    if (permission) pins.revocations.push(permission);
    if (revocation) pins.revocations.push(revocation);
    else if (role === 'open-loop') pins.openLoops.push(sentence);
    else if (role === 'rule' || role === 'decision') pins.constraints.push(sentence);
    else if (role === 'request') pins.requests.push(sentence);
  }
  return compactPins(pins);
}

/**
 * The same from text the person did not write themselves (an agent's own summary of their words):
 * only sentences with explicit markers, so the summary's narration is not pinned as their rule.
 */
export function extractMarkedPins(text: string): ExtractedPins {
  const pins = { constraints: [] as string[], openLoops: [] as string[], requests: [] as string[], revocations: [] as Revocation[] };
  for (const sentence of sentencesOf(text).flatMap((whole) => pinUnits(whole, markedKind))) {
    const revocation = revocationOf(sentence);
    if (revocation) pins.revocations.push(revocation);
    else if (OPEN_LOOP.test(sentence)) pins.openLoops.push(sentence);
    else if (hasRuleKeyword(sentence)) pins.constraints.push(sentence);
  }
  return compactPins(pins);
}

type PinKind = 'constraint' | 'open-loop' | 'request' | 'revocation' | null;

const kindOf = (role: ReturnType<typeof classifySentence>): PinKind =>
  role === 'rule' || role === 'decision' ? 'constraint' : role === 'open-loop' || role === 'request' || role === 'revocation' ? role : null;

const markedKind = (text: string): PinKind =>
  revocationOf(text) ? 'revocation' : OPEN_LOOP.test(text) ? 'open-loop' : hasRuleKeyword(text) ? 'constraint' : null;

/**
 * A sentence as it is pinned: whole, its words together, unless its lower-case clauses are of
 * different kinds ("todo: fix the parser. never touch prod."): then clause by clause, so the rule is
 * not filed as an open loop. A clause that pins nothing stays with its sentence ("errors are handled
 * in metrics. don't overcomplicate" is one rule, its reason kept).
 */
function pinUnits(sentence: string, kindOfPart: (text: string) => PinKind): string[] {
  const clauses = splitClauses(sentence);
  if (clauses.length < 2) return [sentence];
  const kinds = new Set(clauses.map(kindOfPart).filter((kind) => kind !== null));
  return kinds.size > 1 ? clauses : [sentence];
}

/** Empty optional lists left out, so a text without requests or revocations reads as before. */
function compactPins(pins: Required<ExtractedPins>): ExtractedPins {
  const { constraints, openLoops, requests, revocations } = pins;
  return { constraints, openLoops, ...(requests.length > 0 ? { requests } : {}), ...(revocations.length > 0 ? { revocations } : {}) };
}

/** Whether a pins record holds anything at all. */
export const pinCount = (pins: ExtractedPins): number =>
  pins.constraints.length + pins.openLoops.length + (pins.requests?.length ?? 0) + (pins.revocations?.length ?? 0);

/** Whether a sentence (or, as a cheap first test, a whole text) holds an open-loop marker. */
export const isOpenLoop = (text: string): boolean => OPEN_LOOP.test(text);

/** How many open-loop markers a text holds: compared before/after by the verifier. */
export function countOpenLoops(text: string): number {
  return sentencesOf(text).filter((sentence) => OPEN_LOOP.test(sentence)).length;
}

/**
 * Configured entries first (they are the person's deliberate choice), then extracted ones in order,
 * deduplicated. A revocation cancels the extracted rules, requests and open loops before it that name
 * its subject (a configured one is a setting, changed where it is set); they are listed as revoked,
 * with the sentence that revoked them. The same rule said again afterwards is pinned again.
 */
export function buildPinnedSet(configured: readonly string[], extracted: readonly { id: number; pins: ExtractedPins }[]): PinnedSet {
  const seen = new Set<string>();
  const add = (list: PinnedEntry[], text: string, sourceId?: number): void => {
    const trimmed = text.trim();
    if (trimmed === '' || seen.has(trimmed)) return;
    seen.add(trimmed);
    list.push(sourceId === undefined ? { text: trimmed } : { text: trimmed, sourceId });
  };
  const set: Required<PinnedSet> = { constraints: [], openLoops: [], requests: [], revoked: [] };
  for (const text of configured) add(set.constraints, text);
  for (const { id, pins } of extracted) {
    for (const text of pins.constraints) add(set.constraints, text, id);
    for (const text of pins.openLoops) add(set.openLoops, text, id);
    for (const text of pins.requests ?? []) add(set.requests, text, id);
    for (const revocation of pins.revocations ?? []) {
      for (const list of ['constraints', 'requests', 'openLoops'] as const) {
        // A permission lifts what was forbidden before it, never a prohibition said with it.
        const cancelled = set[list].filter(
          (entry) => entry.sourceId !== undefined && (revocation.allows === undefined || entry.sourceId < id) && revokes(revocation, entry.text),
        );
        for (const entry of cancelled) {
          seen.delete(entry.text);
          set.revoked = [...set.revoked.filter((old) => old.text !== entry.text), { ...entry, by: revocation.text, byId: id }];
        }
        set[list] = set[list].filter((entry) => !cancelled.includes(entry));
      }
    }
  }
  // A rule pinned again after its revocation is live again.
  const live = new Set([...set.constraints, ...set.requests, ...set.openLoops].map((entry) => entry.text));
  set.revoked = set.revoked.filter((entry) => !live.has(entry.text));
  return set;
}

/**
 * The set as re-injection reads it: requests count with the rules, so a request whose prompt was
 * summarised is carried back verbatim like a rule (a prompt kept whole already holds its own).
 */
export const withRequests = (set: PinnedSet): PinnedSet => ({ ...set, constraints: [...set.constraints, ...(set.requests ?? [])] });
