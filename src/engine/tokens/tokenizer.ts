// Token counting behind one small interface, so the engine and its tests can swap the count (the
// one-pass estimate every caller uses, four characters a token, or a stub that throws to test
// fail-open). The provider's own usage decides every item's size (attribute.ts); a count only
// splits a measured amount, sizes what no call measured yet and sizes the text the engine writes.

export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}

/** Four characters per token: where even one pass over the characters is too much (every append the follower reads). */
export const charEstimateTokenizer: Tokenizer = {
  name: 'chars/4',
  count: (text) => Math.ceil(text.length / 4),
};
