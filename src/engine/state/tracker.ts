// State, not history: the latest word on each topic across a run of items. A TODO a later item
// completes is done (and where), a claim a later one contradicts gives way to it, a question the
// person asked is matched to the reply that answers it (a failed run's re-run: facts.ts). Indexed
// by stem, so a long session's summary and verification ask it thousands of questions cheaply.
// Shared by the heuristic summary and verification: the summary never states what verification flags.
import type { ContextItem } from '../model';
import { sentencesOf } from '../policy/pinned';
import { askedAbout, claimOf, clausesOf, sameTopic, statusOf, topicNeed, type Claim, type Status } from './statement';

export interface Word {
  itemId: number;
  /** The clause that says it, flattened. */
  text: string;
  status: Status;
  claim: Claim;
}

/** Who may say what: a person's message asks or takes back, it does not report work as done. */
const SPEAKERS = new Set(['assistant', 'summary', 'user']);
const PERSON_SAYS = new Set<Status>(['open', 'reverted']);
/** Prose beyond this is pasted material, not a statement of state. */
const MAX_ITEM_CHARS = 20_000;

export interface StateTracker {
  /** The latest word after `afterId` on what `text` speaks of, if any item spoke of it. */
  latest(text: string, afterId: number): Word | undefined;
  /** The latest word after `afterId` with the same subject and verb as `text` ("the parser uses …"). */
  restated(text: string, afterId: number): Word | undefined;
  /** Whether the latest word on `text` after `afterId` closes it (done or passed). */
  closedBy(text: string, afterId: number): Word | undefined;
  /** The assistant's reply that addresses a question the person asked in item `askedIn`. */
  answerTo(question: string, askedIn: number): { itemId: number; text: string } | undefined;
}

const CLOSED = new Set<Status>(['done', 'passed']);

/** What the tracker reads of an item: who said it, where, and what. */
export type SaidItem = Pick<ContextItem, 'id' | 'kind' | 'text'>;

function wordsOf(item: SaidItem): Word[] {
  if (!SPEAKERS.has(item.kind) || item.text.length > MAX_ITEM_CHARS * 5) return [];
  const words: Word[] = [];
  for (const sentence of sentencesOf(item.text.slice(0, MAX_ITEM_CHARS))) {
    for (const clause of clausesOf(sentence)) {
      const claim = claimOf(clause);
      if (claim.status === undefined || claim.topic.length === 0) continue;
      if (item.kind === 'user' && !PERSON_SAYS.has(claim.status)) continue;
      words.push({ itemId: item.id, text: clause.replace(/\s+/g, ' '), status: claim.status, claim });
    }
  }
  return words;
}

export function trackState(items: readonly SaidItem[]): StateTracker {
  const ordered = [...items].sort((a, b) => a.id - b.id);
  const words = ordered.flatMap(wordsOf);
  const byStem = new Map<string, number[]>();
  words.forEach((word, index) => {
    for (const stem of new Set([...word.claim.topic, ...word.claim.subject])) {
      const list = byStem.get(stem);
      if (list) list.push(index);
      else byStem.set(stem, [index]);
    }
  });

  /**
   * Newest first, stopping at the first match. Candidates come from the rarest stems only: a word
   * sharing `need` of a query's n topic stems holds one of its n − need + 1 rarest, and a word with
   * the same subject holds its rarest subject stem.
   */
  const latestOf = (query: Claim, afterId: number, accept: (query: Claim, later: Claim) => boolean = sameTopic): Word | undefined => {
    const rarest = (stems: readonly string[], count: number): number[][] =>
      stems
        .map((stem) => byStem.get(stem) ?? [])
        .sort((a, b) => a.length - b.length)
        .slice(0, count);
    const lists = [
      ...(query.subject.length > 0 ? rarest(query.subject, 1) : []),
      ...(query.topic.length >= 2 ? rarest(query.topic, query.topic.length - topicNeed(query.topic.length) + 1) : []),
    ];
    const cursors = lists.map((list) => list.length - 1);
    for (;;) {
      let newest = -1;
      lists.forEach((list, at) => (newest = Math.max(newest, list[cursors[at] ?? -1] ?? -1)));
      const word = words[newest];
      if (newest < 0 || !word || word.itemId <= afterId) return undefined;
      lists.forEach((list, at) => {
        if (list[cursors[at] ?? -1] === newest) cursors[at] = (cursors[at] ?? 0) - 1;
      });
      if (accept(query, word.claim)) return word;
    }
  };
  const memo = new Map<string, Word | undefined>();
  const latestCached = (text: string, afterId: number): Word | undefined => {
    const key = `${afterId}\u0000${text}`;
    if (!memo.has(key)) memo.set(key, latestOf(claimOf(text), afterId));
    return memo.get(key);
  };
  const position = new Map(ordered.map((item, index) => [item.id, index]));

  return {
    latest: latestCached,
    restated: (text, afterId) => latestOf(claimOf(text), afterId, sameStatement),
    closedBy(text, afterId) {
      const word = latestCached(text, afterId);
      return word && CLOSED.has(word.status) ? word : undefined;
    },
    answerTo(question, askedIn) {
      // Only the reply before the person's next message counts, and only one that speaks of what
      // was asked: a question moved past without a word on it is still open.
      const asked = askedAbout(question);
      if (asked.length === 0) return undefined;
      const after = ordered.slice((position.get(askedIn) ?? ordered.length) + 1);
      const next = after.findIndex((item) => item.kind === 'user');
      for (const item of next < 0 ? after : after.slice(0, next)) {
        if (item.kind !== 'assistant' || item.text.trim().length < 20) continue;
        const have = new Set(askedAbout(item.text.slice(0, MAX_ITEM_CHARS)));
        if (asked.filter((stem) => have.has(stem)).length >= Math.max(1, Math.ceil(asked.length / 2)))
          return { itemId: item.id, text: item.text.replace(/\s+/g, ' ').trim() };
      }
      return undefined;
    },
  };
}

export interface Resolution {
  how: 'done' | 'passed' | 'answered';
  itemId: number;
  text: string;
}

/**
 * Whether an open loop is closed by the input: its latest word is done or passed, or — for a
 * question the person asked (`askedIn`) — the reply to it speaks of what was asked.
 */
export function resolutionOf(tracker: StateTracker, loop: string, afterId: number, askedIn?: number): Resolution | undefined {
  const word = tracker.closedBy(loop, afterId);
  if (word) return { how: word.status === 'passed' ? 'passed' : 'done', itemId: word.itemId, text: word.text };
  if (askedIn === undefined || !/\?\s*$/.test(loop)) return undefined;
  const answer = tracker.answerTo(loop, askedIn);
  return answer ? { how: 'answered', ...answer } : undefined;
}

const isClosed = (status: Status | undefined): boolean => status !== undefined && CLOSED.has(status);

/**
 * A plain fact restated later with its value changed: the same subject and verb, said "now"
 * ("The parser uses a regex tokenizer" → "The parser now uses a streaming reader").
 */
function superseded(tracker: StateTracker, sentence: string, afterId: number): Word | undefined {
  const word = tracker.restated(sentence, afterId);
  return word && word.status === 'done' && /\bnow\b/i.test(word.text) ? word : undefined;
}

const sameStatement = (query: Claim, later: Claim): boolean =>
  query.verb !== undefined &&
  later.verb === query.verb &&
  later.subject.length === query.subject.length &&
  query.subject.every((stem) => later.subject.includes(stem));

/**
 * The later word a summary sentence is stale against, if any: a sentence saying something is open
 * or failing (or any sentence listed as a loop) when the latest word closes it; or one saying it is
 * done when the latest word re-opens or reverts it. A later failure alone does not re-open
 * (failing runs are matched to their re-runs by command, not by wording).
 */
export function staleAgainst(tracker: StateTracker, sentence: string, afterId: number, asLoop: boolean): Word | undefined {
  const status = statusOf(sentence);
  if (status === undefined && !asLoop) return superseded(tracker, sentence, afterId);
  if (isClosed(status)) {
    const word = tracker.latest(sentence, afterId);
    return word && (word.status === 'open' || word.status === 'reverted') ? word : undefined;
  }
  return asLoop || status !== undefined ? tracker.closedBy(sentence, afterId) : undefined;
}
