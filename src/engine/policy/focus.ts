// Focus instructions (S3, seed 001): "/compact focus on the auth errors" both steers the summary and
// keeps matching items verbatim. Matching is on word stems (Porter, the `stemmer` package), so
// "keep the retry decision" matches "retries" and "decided"; an item matches when it holds the
// focus phrase itself, or enough of its meaningful words in any order: all of one or two, at
// least half of three or more (a focus sentence says more than any one message does).
import { stemmer } from 'stemmer';

const FILLER = new Set([
  'focus',
  'focusing',
  'especially',
  'on',
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'to',
  'in',
  'for',
  'with',
  'about',
  'keep',
  'preserve',
  'please',
  'all',
  'any',
  'our',
  'my',
  'that',
  'this',
  'these',
  'those',
  'is',
  'are',
]);

const WORD = /[\p{L}\p{N}_./-]+/gu;

export function focusTerms(focus: string): string[] {
  const words = focus.toLowerCase().match(WORD) ?? [];
  return [...new Set(words.filter((word) => word.length >= 3 && !FILLER.has(word)))];
}

/** A word's stem; paths, identifiers and numbers (anything but letters) are kept whole. */
export function stemOf(word: string): string {
  const lower = word.toLowerCase();
  return /^\p{L}+$/u.test(lower) ? stemmer(lower) : lower;
}

/**
 * The stems of a text's words, a path or identifier also by its parts ("/auth/login.ts" holds
 * "auth" and "login"). Bounded: a focus match only needs the opening of a huge output.
 */
function stemsOf(text: string): Set<string> {
  const stems = new Set<string>();
  for (const word of text.slice(0, 200_000).match(WORD) ?? []) {
    stems.add(stemOf(word));
    if (/[./_-]/.test(word)) for (const part of word.split(/[./_-]+/)) if (part !== '') stems.add(stemOf(part));
  }
  return stems;
}

/** How many of the focus stems an item must hold. */
export function required(terms: number): number {
  return terms <= 2 ? terms : Math.ceil(terms / 2);
}

/** A matcher for item text, or undefined when the focus text has no meaningful words. */
export function focusMatcher(focus: string): ((text: string) => boolean) | undefined {
  const terms = focusTerms(focus);
  if (terms.length === 0) return undefined;
  const need = required(new Set(terms.map(stemOf)).size);
  const phrase = terms.length >= 2 ? terms.join(' ') : undefined;
  return (text) => (phrase !== undefined && text.toLowerCase().replace(/\s+/g, ' ').includes(phrase)) || new Set(termsIn(terms, text).map(stemOf)).size >= need;
}

/** Which of the focus text's words an item holds (by stem, or a path anywhere), for "kept: matched retry, decision". */
export function focusWordsIn(focus: string, text: string): string[] {
  return termsIn(focusTerms(focus), text);
}

function termsIn(terms: readonly string[], text: string): string[] {
  const lower = text.toLowerCase();
  const present = stemsOf(text);
  // A path or identifier ("prod.yaml") is found anywhere, also inside a longer path.
  return terms.filter((term) => {
    const stem = stemOf(term);
    return present.has(stem) || (/[./_-]/.test(stem) && lower.includes(stem));
  });
}
