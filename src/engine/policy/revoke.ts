// A later instruction that cancels an earlier one wins: "Forget the Node 18 rule; Node 22 is fine
// now." revokes "Keep Node 18 compatibility: …" said before it. The revoked constraint leaves the
// pinned set (so neither the summary, the pinned block nor the hooks present it as a rule again) and
// is listed as revoked, with the sentence that revoked it.

/** "forget / ignore / drop … the <subject> rule|constraint|requirement" and "<subject> rule no longer applies". */
const CANCEL_VERB = /\b(?:forget|ignore|drop|disregard|scrap|lift|never mind|no need for|you can stop following)\s+(?:about\s+)?(?:the|that|my|our|your)?\s*(.{2,60}?)\s+(?:rule|constraint|requirement|restriction|instruction|limit)s?\b/i;
/** "Never mind about the Windows paths", "Forget about the changelog": the whole sentence cancels what it names. */
const NEVER_MIND = /^(?:(?:ok(?:ay)?|actually|also|and)[,\s]+)?(?:never ?mind|forget|scratch)\s+(?:about\s+)?(?:the\s+|that\s+|my\s+|our\s+)?(.{2,60}?)(?:\s+(?:part|bit|thing|idea|request|point))?\s*(?:[.!;,]|$)/i;
const NO_LONGER = /\b(?:the|that|my|our)\s+(.{2,60}?)\s+(?:rule|constraint|requirement|restriction|instruction|limit)s?\s+(?:no longer applies|does not apply any more|is (?:lifted|gone|off|void|cancell?ed|revoked))\b/i;

const FILLER = new Set(['the', 'a', 'an', 'old', 'earlier', 'previous', 'that', 'this', 'about', 'whole']);
/** A revocation naming only these names nothing ("forget it"): it revokes nothing. */
const VAGUE = new Set(['it', 'that', 'this', 'them', 'those', 'everything', 'all', 'what', 'i', 'you', 'me']);

export interface Revocation {
  /** The sentence that revokes. */
  text: string;
  /** Words naming what is revoked ("node", "18"); a constraint holding all of them is revoked. */
  subject: string[];
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
  return revocation.subject.every((word) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu').test(constraint));
}
