// A later instruction that cancels an earlier one wins: "Forget the Node 18 rule; Node 22 is fine
// now." revokes "Keep Node 18 compatibility: …" said before it. The revoked constraint leaves the
// pinned set (so neither the summary, the pinned block nor the hooks present it as a rule again) and
// is listed as revoked, with the sentence that revoked it.
import { stemOf } from './focus';

/** "forget / ignore / drop … the <subject> rule|constraint|requirement" and "<subject> rule no longer applies". */
const CANCEL_VERB =
  /\b(?:forget|ignore|drop|disregard|scrap|lift|never mind|no need for|you can stop following)\s+(?:about\s+)?(?:the|that|my|our|your)?\s*(.{2,60}?)\s+(?:rule|constraint|requirement|restriction|instruction|limit)s?\b/i;
/** "Never mind about the Windows paths", "Forget about the changelog": the whole sentence cancels what it names. */
const NEVER_MIND =
  /^(?:(?:ok(?:ay)?|actually|also|and)[,\s]+)?(?:never ?mind|forget|scratch)\s+(?:about\s+)?(?:the\s+|that\s+|my\s+|our\s+)?(.{2,60}?)(?:\s+(?:part|bit|thing|idea|request|point))?\s*(?:[.!;,]|$)/i;
const NO_LONGER =
  /\b(?:the|that|my|our)\s+(.{2,60}?)\s+(?:rule|constraint|requirement|restriction|instruction|limit)s?\s+(?:no longer applies|does not apply any more|is (?:lifted|gone|off|void|cancell?ed|revoked))\b/i;

const FILLER = new Set(['the', 'a', 'an', 'old', 'earlier', 'previous', 'that', 'this', 'about', 'whole']);
/** A revocation naming only these names nothing ("forget it"): it revokes nothing. */
const VAGUE = new Set(['it', 'that', 'this', 'them', 'those', 'everything', 'all', 'what', 'i', 'you', 'me']);

export interface Revocation {
  /** The sentence that revokes. */
  text: string;
  /** Words naming what is revoked ("node", "18"); a constraint holding all of them is revoked. */
  subject: string[];
  /** A permission instead: the stems of what it allows; a prohibition of only these is lifted. */
  allows?: string[];
}

function subjectWords(phrase: string): string[] {
  return (phrase.toLowerCase().match(/[\p{L}\p{N}_./-]+/gu) ?? []).filter((word) => !FILLER.has(word));
}

/** The revocation a sentence makes, if any. */
export function revocationOf(sentence: string): Revocation | undefined {
  const match = CANCEL_VERB.exec(sentence) ?? NO_LONGER.exec(sentence) ?? NEVER_MIND.exec(sentence);
  const subject = subjectWords(match?.[1] ?? '');
  return subject.length === 0 || subject.every((word) => VAGUE.has(word)) ? undefined : { text: sentence, subject };
}

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether `constraint` is what `revocation` cancels: it names every word of the subject. */
export function revokes(revocation: Revocation, constraint: string): boolean {
  if (revocation.allows) return permits(revocation, constraint);
  return revocation.subject.every((word) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu').test(constraint));
}

// A later permission lifts an earlier prohibition as an explicit "forget that rule" does: "Do not
// change any provider yet." is lifted by "Go ahead: remove the provider-level retry loops …". The
// permission names what it allows; a prohibition all of whose objects it names is lifted.

/** "Do not / don't / never / no need to / avoid <verb> <objects>", "leave <objects> alone", "<objects> is off-limits". */
const PROHIBITION =
  /^(?:(?:please|and|also|but|so)[,\s]+)?(?:(?:do not|don't|dont|never|please don't|avoid|refrain from)\s+(?:\w+(?:ing)?\s+)?(.{2,120}?)|leave\s+(.{2,80}?)\s+alone|(.{2,80}?)\s+(?:is|are)\s+off[- ]limits)(?:\s+(?:yet|for now|right now|at this point|until [^.!]*|before [^.!]*))?\s*[.!]?$/i;
/** Words saying a thing may now be done. */
const PERMISSION =
  /\b(?:go ahead|feel free to|you(?:'re| are) free to|you (?:can|may) now|now you (?:can|may)|you (?:can|may) (?:go ahead|proceed)|(?:it'?s|it is) (?:now )?(?:ok|okay|fine|alright) to|(?:is|are) (?:fine|ok|okay|allowed) now|(?:is|are) now (?:fine|ok|okay|allowed)|you have my (?:go-ahead|permission)|green light)\b/i;
/** What a permission allows ends where it goes on to forbid or except something. */
const EXCEPTION = /\b(?:but|except|apart from|other than|without|don't|do not|never|not)\b/i;
const PROHIBITION_FILLER = new Set([
  'any',
  'the',
  'a',
  'an',
  'of',
  'our',
  'my',
  'your',
  'its',
  'their',
  'this',
  'that',
  'these',
  'those',
  'to',
  'in',
  'on',
  'for',
  'with',
  'and',
  'or',
  'yet',
  'now',
  'it',
  'them',
  'anything',
  'all',
  'single',
  'one',
  'more',
  'file',
  'files',
  'code',
  'please',
]);

/** The stems a phrase names: words split at hyphens and dots too ("provider-level" names "provider"). */
function namedStems(phrase: string): string[] {
  const words = phrase.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length > 1 && !PROHIBITION_FILLER.has(word)).map(stemOf))];
}

/** What a prohibition forbids touching ("any provider" → ["provid"]), or undefined when it is none. */
export function prohibitedObjects(rule: string): string[] | undefined {
  const match = PROHIBITION.exec(rule.trim());
  if (!match) return undefined;
  const stems = namedStems(match[1] ?? match[2] ?? match[3] ?? '');
  return stems.length > 0 ? stems : undefined;
}

/** The permission a sentence gives, if any: the stems of what it allows, up to an exception. */
export function permissionOf(sentence: string): Revocation | undefined {
  const match = PERMISSION.exec(sentence);
  if (!match) return undefined;
  const allowed = sentence.slice(0, match.index) + sentence.slice(match.index).split(EXCEPTION)[0];
  const stems = namedStems(allowed);
  return stems.length > 0 ? { text: sentence, subject: [], allows: stems } : undefined;
}

/** Whether a permission lifts `rule`: a prohibition every object of which the permission names. */
export function permits(permission: Revocation, rule: string): boolean {
  const objects = prohibitedObjects(rule);
  const allows = new Set(permission.allows ?? []);
  return objects !== undefined && objects.every((stem) => allows.has(stem));
}
