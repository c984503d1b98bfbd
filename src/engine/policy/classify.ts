// What a sentence the person typed does, read as a person would read it: a standing rule ("Stick to
// two-space indentation", "lib/ is off-limits", "you should…"), a decision ("let's go with…"), a
// request ("Use pnpm", "I'd like…"), an open loop (a question, "Remind me…", "we still have to
// decide…"), a revocation of an earlier rule, or none of these (thanks, a pasted log). Imperatives are
// found by part of speech (compromise's English tagger), not by a list of verbs; the phrasing of
// modality, evaluation, wishes and open loops is matched on its grammatical frame. Pure.
import type Compromise from 'compromise/two';
import { revocationOf } from './revoke';

type Tagger = typeof Compromise;
let loaded: Tagger | undefined;

/**
 * The tagger, loaded on first use: 300 KB that take ~0.4 s of CPU to load, which a run that never
 * meets a sentence the patterns below cannot place (and the extension's start-up) must not pay.
 */
function tagger(): Tagger {
  if (loaded) return loaded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; an import would load it with this module
  const module = require('compromise/two') as Tagger | { default: Tagger };
  loaded = 'default' in module ? module.default : module;
  return loaded;
}

export type SentenceRole = 'rule' | 'decision' | 'request' | 'open-loop' | 'revocation' | 'none';

/**
 * How many sentences one run (a plan, a hook) may hand to the tagger (~0.5 ms each): past it, a
 * sentence is read by its frame alone, so a transcript of 500,000 prompts costs seconds, not
 * minutes. Callers spend it newest first.
 */
export const TAGGED_SENTENCES_PER_RUN = 2_000;

/** What is left of a run's tagger allowance. */
export interface TagBudget {
  left: number;
}

export const tagBudget = (): TagBudget => ({ left: TAGGED_SENTENCES_PER_RUN });

/** Longer than this is pasted material (logs, specs), not a sentence to keep apart. */
export const MAX_SENTENCE_CHARS = 400;

/** Harness lines in the person's turn, and pasted output: a log line, a stack frame, a prompt, markup. */
const PASTED =
  /^(?:\[Request interrupted|\[image\]|at\s+\S+\s+\(|\d{4}-\d{2}-\d{2}[T ]\d|\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s|npm (?:ERR|WARN)|(?:error|warning|warn|info|debug|fatal|traceback)\b\s*[:[(]|\$\s|>{1,3}\s|#!|[{}[\]<]|```|\w+Error:|E\d{3,}\b|\s*\|)/i;
/** Words that make a whole sentence chit-chat when nothing else is in it. */
const CHAT = new Set([
  'thanks',
  'thank',
  'you',
  'thx',
  'ty',
  'great',
  'nice',
  'cool',
  'ok',
  'okay',
  'k',
  'yes',
  'yep',
  'yeah',
  'no',
  'nope',
  'sure',
  'lgtm',
  'perfect',
  'awesome',
  'good',
  'looks',
  'sounds',
  'so',
  'much',
  'a',
  'lot',
  'job',
  'work',
  'done',
  'wow',
  'hi',
  'hello',
  'hey',
  'alright',
  'right',
  'fine',
  'got',
  'it',
  'makes',
  'sense',
  'agreed',
  'exactly',
  'indeed',
  'very',
  'well',
  'excellent',
  'amazing',
]);

/** The old keyword list: a strong signal still, and the highlight `hasRuleKeyword` offers (no longer a gate). */
export const RULE_KEYWORDS = /\b(never|must|always|do not|don't|dont|must not|mustn't|shall not|under no circumstances|only ever)\b/i;
/** "Keep the public signatures unchanged", "Leave config/ alone": an imperative to preserve. */
const PRESERVE =
  /^(?:please\s+)?(?:also\s+)?(?:keep|leave|preserve|stay)\b.*\b(?:unchanged|untouched|intact|as is|alone|compatib\w*|backwards?[- ]compatible|stable)\b/i;
/** Modal and evaluative framing: "you should…", "it's better to…", "we'd rather…", "X is off-limits". */
const MODAL =
  /\b(?:should(?:n't| not)?|ought to|(?:has|have|needs?) to|shall|mustn't|may not|is not allowed|are not allowed|not supposed to|is supposed to|are supposed to)\b/i;
const EVALUATIVE =
  /\b(?:(?:it'?s|it is|that'?s|that is|this is)\s+(?:(?:much|a lot|way|far|always|usually|generally)\s+)?(?:better|best|preferable|safer|important|essential|crucial|critical|key|vital|mandatory|required|a bad idea|a good idea|bad idea|not ok|not okay|fine to|ok to|okay to)|(?:I'?d|we'?d|I would|we would)\s+(?:rather|prefer)|(?:I|we)\s+prefer\b|prefer(?:ably|red)\b)/i;
const STATUS =
  /\b(?:is|are|stays?|remains?|must be|should be)\s+(?:strictly\s+|completely\s+|totally\s+)?(?:off[- ]limits|read[- ]only|readonly|forbidden|frozen|sacred|mandatory|required|crucial|critical|essential|important|a must|non-negotiable|out of scope|a hard requirement|not (?:to be )?(?:touched|changed|modified))\b/i;
/** Scope that makes an imperative standing: "in everything you write", "for this whole task". */
const STANDING =
  /\b(?:never|always|only|every(?:thing|where)?|all (?:the )?(?:time|code|files|tests)|whole|entire|from now on|going forward|throughout|at all times|for (?:the rest|this (?:whole |entire )?(?:task|session|project|repo))|no matter)\b|^(?:please\s+)?(?:also\s+)?(?:stick|treat|stay|avoid|prefer|keep|leave|refrain|stop|don't|do not|never|always)\b/i;
const WISH =
  /\b(?:I|we)\s+(?:(?:really|still|also|just)\s+)?(?:want|need|wish|expect|require)\b|\b(?:I|we)(?:'d| would)\s+(?:like|love|want)\b|^(?:please|pls|plz|kindly)\b|\bthere is a need\b|\bthere'?s a need\b|\bmake sure\b|\bensure\b|\bcan you\b|\bcould you\b|\bwould you\b|\bI'?m asking\b/i;
const DECISION =
  /^(?:I|we) (?:think|believe|feel|guess|suspect|agree)\b|\b(?:let'?s|let us|we(?:'ll| will) (?:go with|use|keep|take|do)|(?:we|I)(?:'ve| have)? (?:decided|agreed|settled|chose|chosen)|go with|the plan is|the decision is|decision:)\b/i;
/** Open loops in so many words: reminders, undecided points, things to come back to. */
const OPEN_LOOP =
  /\b(?:remind me|don'?t (?:let me )?forget|do not forget|(?:we|I) (?:still )?(?:have|need|got) to (?:decide|figure out|settle|discuss|agree|check|confirm|think about)|(?:still|yet) to (?:be )?decide[ds]?|not (?:yet )?decided|undecided|TBD|TODO|FIXME|open question|come back to|follow up on|revisit|not sure (?:yet )?(?:whether|if|about|how)|remains? (?:open|unclear|to be seen)|later on|before we (?:ship|merge|release|deploy))\b/i;
const QUESTION_START =
  /^(?:what|why|how|when|where|which|who|whose|whom|is|are|was|were|does|did|can|could|would|will|shall|should|have|has|may|might|any idea|any chance|what about|how about)\b(?!\s+not\b)/i;
/** Words an imperative may be preceded by: "Also keep…", "Please run…", "Then use…". */
const LEAD_IN = new Set([
  'please',
  'pls',
  'also',
  'and',
  'then',
  'just',
  'now',
  'so',
  'ok',
  'okay',
  'first',
  'next',
  'finally',
  'but',
  'again',
  'instead',
  'simply',
  'ideally',
]);

/** A tagged word as the tagger keeps it (read directly: building its JSON view costs twice the tagging). */
interface Term {
  normal: string;
  tags: ReadonlySet<string>;
}

/** A word followed by one of these is a verb taking its object: "Cache the results", "Log everything". */
const OBJECT_START = new Set([
  'the',
  'a',
  'an',
  'it',
  'them',
  'this',
  'these',
  'those',
  'everything',
  'each',
  'every',
  'my',
  'our',
  'your',
  'its',
  'their',
  'me',
  'us',
]);
/** Clauses an imperative may follow: "before providing a proposal, check…". */
const SUBORDINATE = /^(?:before|after|when|whenever|once|if|while|until|as soon as)\b/i;

function tagged(text: string): Term[] {
  return (tagger()(text).docs[0] ?? []).map((term) => ({ normal: term.normal, tags: term.tags ?? new Set<string>() }));
}

const hasAny = (term: Term | undefined, ...tags: string[]): boolean => term !== undefined && tags.some((tag) => term.tags.has(tag));

/** A bare verb (not "failed", not "is"): what an imperative opens with once its lead-in words are gone. */
function opensWithBareVerb(words: readonly string[]): boolean {
  // Read after "to", a word that is a noun or a verb is read as a verb when it can be one ("Run bd
  // show…", "Log everything…"); a capital first letter would read as a proper noun ("Treat", "Stick").
  const [, verb, next] = tagged(`to ${words.slice(0, 8).join(' ').toLowerCase()}`);
  if (!verb) return false;
  // A noun-or-verb word taking an object ("Cache the results") reads as a command, too.
  if (verb.tags.has('Singular') && next !== undefined && OBJECT_START.has(next.normal)) return /^[a-z]+$/.test(verb.normal);
  if (!verb.tags.has('Verb') || !hasAny(verb, 'Infinitive', 'Imperative') || verb.tags.has('Gerund')) return false;
  return !hasAny(next, 'PastTense', 'Copula', 'Modal') && !(hasAny(next, 'Adjective') && /ed$/.test(next?.normal ?? ''));
}

/** "Use pnpm", "Stick to…", "Also keep…", "before X, check Y": a bare verb with no subject. */
export function isImperative(sentence: string): boolean {
  const words = sentence.split(/\s+/).filter((word) => word !== '');
  let start = 0;
  while (start < words.length && LEAD_IN.has((words[start] ?? '').toLowerCase().replace(/[^a-z]/g, ''))) start += 1;
  if (opensWithBareVerb(words.slice(start))) return true;
  if (!SUBORDINATE.test(words.slice(start).join(' '))) return false;
  // After a leading clause, the main verb: a bare verb with no subject, modal or "to" before it.
  const terms = tagged(sentence.charAt(0).toLowerCase() + sentence.slice(1));
  return terms.some((term, index) => {
    const before = terms[index - 1];
    if (index < 2 || !before || before.normal === 'to' || hasAny(before, 'Noun', 'Pronoun', 'Modal', 'Auxiliary')) return false;
    return term.tags.has('Verb') && hasAny(term, 'Infinitive', 'Imperative') && !term.tags.has('Gerund');
  });
}

function isChat(sentence: string): boolean {
  const words = sentence.toLowerCase().match(/[a-z']+/g) ?? [];
  return words.length <= 8 && words.every((word) => CHAT.has(word));
}

/** Pasted output, markup or a lone path: too few letters for a sentence someone typed. */
function isPasted(sentence: string): boolean {
  if (PASTED.test(sentence)) return true;
  const letters = (sentence.match(/\p{L}/gu) ?? []).length;
  // A lone token with path or code punctuation ("src/a.ts", "foo.bar()") is a paste, not a sentence.
  return letters < 2 || letters / sentence.length < 0.5 || (!/\s/.test(sentence) && /[/\\.:_()=]/.test(sentence));
}

/** The role of one sentence the person typed (see the file comment); without a budget the tagger is always asked. */
export function classifySentence(raw: string, budget?: TagBudget): SentenceRole {
  const sentence = raw.trim();
  if (sentence === '' || sentence.length > MAX_SENTENCE_CHARS) return 'none';
  if (revocationOf(sentence)) return 'revocation';
  if (isPasted(sentence) || isChat(sentence)) return 'none';
  if (OPEN_LOOP.test(sentence)) return 'open-loop';
  if (sentence.endsWith('?') || QUESTION_START.test(sentence)) return 'open-loop';
  if (RULE_KEYWORDS.test(sentence) || PRESERVE.test(sentence) || STATUS.test(sentence) || MODAL.test(sentence) || EVALUATIVE.test(sentence)) return 'rule';
  if (DECISION.test(sentence)) return 'decision';
  const tag = budget === undefined || budget.left > 0;
  if (budget && tag) budget.left -= 1;
  if (tag && isImperative(sentence)) return STANDING.test(sentence) ? 'rule' : 'request';
  return WISH.test(sentence) ? 'request' : 'none';
}

/** Whether a sentence carries the old rule keywords: a highlight for the UI, never a gate. */
export const hasRuleKeyword = (sentence: string): boolean => RULE_KEYWORDS.test(sentence) || PRESERVE.test(sentence);
