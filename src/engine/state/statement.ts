// One claim about the work's state, read from a clause: what it is about (its topic — content-word
// stems, paths, identifiers — and, when it opens with one, its grammatical subject) and what it says
// of it (open, done, failed, passed, reverted). The state tracker compares claims by topic to find
// each one's latest word; nothing here names a project, a file or a phrase of one session.
import { stemOf } from '../policy/focus';

export type Status = 'open' | 'done' | 'failed' | 'passed' | 'reverted';

export interface Claim {
  status: Status | undefined;
  /** Stems of the content words, paths and identifiers whole. */
  topic: string[];
  /** Stems before the predicate ("The backoff is now …" → backoff); empty when none stands out. */
  subject: string[];
  /** The predicate's verb, past "now", "still", "not" ("is", "uses"): a fact restated with it changed value. */
  verb?: string;
}

const REVERTED = /\b(?:revert(?:ed|s|ing)?|rolled (?:it |this |that )?back|roll(?:ing)? back|undid|undone|backed out)\b/i;
const NO_LONGER_FAILS = /\bno longer (?:fail|fails|failing|breaks|broken|crash(?:es)?|errors?)\b|\bstill (?:pass(?:es)?|passing|works?|green)\b/i;
/** Participles that say work happened; negated, they say it has not. */
const COMPLETED =
  'fixed|done|implemented|resolved|addressed|handled|merged|landed|shipped|finished|completed?|started|wired(?: up)?|tested|working|passing|supported|committed|pushed|deployed|released|applied|closed';
/** Not done yet, said in the ways people and agents say it. */
const OPEN = new RegExp(
  [
    'TODO|FIXME|open question|yet to|left to do|to be done|not \\w+ed yet|blocked|blocks|blocking',
    'still (?:need|needs|open|unresolved|to do|todo|pending|missing|broken|failing|fails|[a-z]+)',
    `(?:not|never|isn't|aren't|hasn't|haven't|wasn't|weren't|didn't|doesn't|don't) (?:yet )?(?:been )?(?:\\w+ ){0,2}?(?:${COMPLETED})`,
    '(?:remains?|is|are) (?:unfixed|unresolved|pending|outstanding|open|missing)',
  ]
    .map((part) => `\\b(?:${part})\\b`)
    .join('|'),
  'i',
);
const FAILED = /\b(?:fail(?:s|ed|ing)?|broken|crash(?:es|ed|ing)?|errors? out)\b/i;
/** Intentions are not state: "I'll fix the loop" neither opens nor closes anything. */
const PLAN = /\b(?:I'll|I will|we'll|we will|let me|let's|going to|plan to|will|should|could|would|needs?|have to|has to|want to|try to|next)\b|\?\s*$/i;
const PASSED = /\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|successful(?:ly)?)\b/i;
const DONE =
  /\b(?:done|fixed|implemented|completed?|resolved|merged|landed|shipped|addressed|finished|no longer|(?:is|are|was|were|has|have|does|do) now|switched|replaced|removed|in place)\b|\S\s+now\s+(?!(?:I|we|let|let's|you|that|on)\b)[a-z]+/i;

const STOP = new Set(
  (
    'a an the and or but of to in on at by for with from into onto as is are was were be been being has have had do does did it its this that these those there here ' +
    'i we you he she they me us my our your their them what which who whom when where why how all any some each every both no not nor only own same so than too very ' +
    'can will just should would could may might must now still yet also again ever already then once about above after before below up down out over under more most ' +
    'other such if because while until since per via one two three let lets ok okay yes please thanks todo fixme open question done fix fixed fixes implemented completed complete resolved ' +
    'merged landed shipped addressed finished longer switched replaced removed place fail fails failed failing failure failures broken pass passes passed passing green ' +
    'succeed succeeded work works working test tests suite everything nothing something anything thing things code file files change changes make made need needs revert reverted back ' +
    'back out need pending missing unresolved outstanding left isn aren hasn haven wasn weren didn doesn don never'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}_./-]+/gu;
/** Where the predicate starts: after it, words say what the subject is or does. */
const PREDICATE =
  /^(?:is|are|was|were|has|have|had|still|now|not|no|does|do|did|will|should|must|can|could|would|may|fixed|done|passes|fails|uses|now|remains|got|gets)$/i;

/** Function words only: what a question asks about includes words like "open" or "failing". */
const FUNCTION_WORDS = new Set(
  'a an the and or but of to in on at by for with from into as is are was were be been has have had do does did it its this that there i we you they me us my our your what which who when where why how can will should would could any some so if'.split(
    ' ',
  ),
);

function stems(words: readonly string[], stop: ReadonlySet<string> = STOP): string[] {
  const out = new Set<string>();
  for (const raw of words) {
    const word = raw.replace(/^[./-]+|[./-]+$/g, '');
    const lower = word.toLowerCase();
    if (lower.length < 2 || stop.has(lower)) continue;
    // A path or identifier is kept whole (and its last name, without extension): "src/retry.ts", "retry".
    if (/[./_]/.test(word) && /\p{L}/u.test(word)) {
      out.add(lower);
      const base = lower.split('/').at(-1)?.split('.')[0] ?? '';
      if (base.length >= 3 && !stop.has(base)) out.add(stemOf(base));
      continue;
    }
    const stem = stemOf(lower);
    if (!stop.has(stem)) out.add(stem);
  }
  return [...out];
}

export function statusOf(clause: string): Status | undefined {
  if (REVERTED.test(clause)) return 'reverted';
  if (NO_LONGER_FAILS.test(clause)) return 'passed';
  if (OPEN.test(clause)) return 'open';
  if (FAILED.test(clause)) return 'failed';
  if (PLAN.test(clause)) return undefined;
  if (PASSED.test(clause)) return 'passed';
  return DONE.test(clause) ? 'done' : undefined;
}

export function claimOf(clause: string): Claim {
  const words = clause.replace(/`/g, '').match(WORD) ?? [];
  const cut = words.findIndex((word) => PREDICATE.test(word));
  // A subject is a short noun phrase that opens the clause; "TODO:" or a verb first makes none.
  const subject = cut > 0 && cut <= 5 && !/:/.test(clause.split(/\s+/).slice(0, cut).join(' ')) ? stems(words.slice(0, cut)) : [];
  const verb = subject.length > 0 ? words.slice(cut).find((word) => !/^(?:now|still|not|no|longer)$/i.test(word)) : undefined;
  return { status: statusOf(clause), topic: stems(words), subject, ...(verb ? { verb: stemOf(verb.toLowerCase()) } : {}) };
}

/** Stems of every word but function words: what a question is about, or what a reply speaks of. */
export function askedAbout(text: string): string[] {
  return stems(text.replace(/`/g, '').match(WORD) ?? [], FUNCTION_WORDS);
}

/** Clauses of a sentence: "; " and " — " separate claims that may differ in status. */
export function clausesOf(sentence: string): string[] {
  return sentence
    .split(/;\s+|\s+[\u2014\u2013]\s+|,\s+(?:but|then|and then)\s+/)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

/** How many of a query's topic stems a later claim must name: all of one or two, else half and at least two. */
export function topicNeed(size: number): number {
  return size <= 2 ? size : Math.max(2, Math.ceil(size / 2));
}

/** Whether `later` speaks of what `query` speaks of: the same subject, or most of its topic. */
export function sameTopic(query: Claim, later: Claim): boolean {
  if (query.subject.length > 0 && later.subject.length === query.subject.length && query.subject.every((stem) => later.subject.includes(stem))) return true;
  // One shared word ("retry") is not a topic; a single-word query only matches by subject.
  if (query.topic.length < 2) return false;
  const have = new Set(later.topic);
  return query.topic.filter((stem) => have.has(stem)).length >= topicNeed(query.topic.length);
}

/** Verbs that say how a loop would be done, not what it is about: "take X from Y" is "reading X from Y". */
const LIGHT_VERBS = new Set(
  'take read get use load fetch pull check look decid handl set make add put keep find see consid think figur work determin confirm verifi investig clarifi answer resolv sort address'
    .split(' ')
    .map(stemOf),
);

/**
 * Whether two open loops say the same thing in other words ("Open question: take the retry budget
 * from config/prod.yaml?" / "Still open: reading the retry budget from config/prod.yaml."): they
 * share at least three topic stems and differ only in light verbs. "The refund path" and "the
 * charge path" differ in what they are about: two loops.
 */
export function sameLoop(a: string, b: string): boolean {
  const left = new Set(claimOf(a).topic);
  const right = new Set(claimOf(b).topic);
  const shared = [...left].filter((stem) => right.has(stem)).length;
  const differing = [...left, ...right].filter((stem) => !(left.has(stem) && right.has(stem)));
  return shared >= 3 && differing.every((stem) => LIGHT_VERBS.has(stem));
}

/** One of each group of loops that say the same thing: the first, or any in `keep` (never dropped). */
export function distinctLoops(loops: readonly string[], keep: ReadonlySet<string> = new Set()): string[] {
  const kept: string[] = [];
  for (const loop of loops) if (keep.has(loop) || !kept.some((earlier) => sameLoop(earlier, loop))) kept.push(loop);
  return kept;
}
