// The clauses of one sentence the person typed, where they end a thought before a lower-case word:
// people type rules in lower case as often as not ("todo: fix the parser. never touch prod."). A
// clause ends at `.`, `!` or `?` and whitespace before any letter, quote or bracket, except where the
// full stop belongs to an abbreviation ("e.g. the retry loop", "et al. found"), an initial or a list
// number, or is an ellipsis going on ("wait... then retry"). Sentences themselves end only before a
// capital (pinned.ts): a clause split is used where the clauses are of different kinds. Unicode
// sentence segmentation (Intl.Segmenter) never breaks before a lower-case letter, the case this is for.

/**
 * Abbreviations a lower-case word often follows mid-sentence, compared without their full stops,
 * case-blind. Words that also end sentences ("no.", "max.") are left out: a rule lost in the one
 * before it costs more than a sentence split at an abbreviation.
 */
const ABBREVIATIONS = new Set('etc vs cf al approx incl esp resp viz ca mr mrs ms dr jr sr inc ltd corp fig figs vol ibid dept'.split(' '));

/** A candidate end: the mark(s) and the whitespace after them. */
const END = /[.!?]+\s+/g;
/** What may open a sentence after an end. */
const OPENS = /^[\p{L}"'`([]/u;
const CAPITAL_OR_QUOTE = /^[\p{Lu}"'`([]/u;

/** The clauses of one sentence, trimmed; the text between them is kept whole. */
export function splitClauses(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of line.matchAll(END)) {
    const at = match.index;
    const next = at + match[0].length;
    const rest = line.slice(next);
    if (!OPENS.test(rest)) continue;
    if (!CAPITAL_OR_QUOTE.test(rest) && !endsBeforeLowerCase(line.slice(start, at), match[0].trim())) continue;
    sentences.push(line.slice(start, next).trim());
    start = next;
  }
  sentences.push(line.slice(start).trim());
  return sentences.filter((sentence) => sentence.length > 0);
}

/** Whether `marks` after `before` end a sentence though a lower-case word follows. */
function endsBeforeLowerCase(before: string, marks: string): boolean {
  // An ellipsis goes on ("wait... then retry"); "!" and "?" end.
  if (marks.includes('..')) return false;
  if (!marks.includes('.')) return true;
  const word = (/(\S+)$/.exec(before)?.[1] ?? '').replace(/^[("'`[]+/, '');
  // "e.g.", "i.e.", "a.m.": letters between full stops (a file name, "package.json.", is no abbreviation).
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word)) return false;
  // An initial ("J. doe"), or a list's letter or number opening the text ("a. first", "1. item").
  if (/^\p{L}$/u.test(word) || (/^\d+$/.test(word) && before.trim() === word)) return false;
  return !ABBREVIATIONS.has(word.toLowerCase());
}
