// Focus instructions (S3, seed 001): "/compact focus on the auth errors" both steers the summary and
// keeps matching items verbatim. Matching is on the meaningful words of the focus text so "focus on
// the payment integration" matches an item mentioning "payment" and "integration" in any order.

const FILLER = new Set([
  'focus', 'focusing', 'especially', 'on', 'the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'for', 'with', 'about', 'keep', 'preserve', 'please', 'all', 'any', 'our', 'my', 'that', 'this', 'these', 'those', 'is', 'are',
]);

export function focusTerms(focus: string): string[] {
  const words = focus.toLowerCase().match(/[\p{L}\p{N}_./-]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 3 && !FILLER.has(word)))];
}

/** A matcher for item text, or undefined when the focus text has no meaningful words. */
export function focusMatcher(focus: string): ((text: string) => boolean) | undefined {
  const terms = focusTerms(focus);
  if (terms.length === 0) return undefined;
  return (text) => {
    const lower = text.toLowerCase();
    return terms.every((term) => lower.includes(term));
  };
}
