// Token counting behind one small interface, so the engine, its tests and the worker can swap the
// implementation (exact BPE, cached, or a stub that throws to test fail-open).
import type * as O200k from './o200k';
import { countBounded, DEFAULT_COUNT_LIMITS, type Bpe, type CountLimits, type TokenCount } from './bounded';

export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}

/** Special tokens are ordinary text here: transcripts may quote `<|endoftext|>`. */
const AS_TEXT = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

/**
 * o200k BPE. Claude's own tokenizer is not public; o200k is close enough for relative sizes, and
 * the context total is corrected to the provider's exact usage anyway (see scale.ts).
 * gpt-tokenizer gives the same counts as js-tiktoken (checked by a property test) at 4–8× the
 * throughput (`npm run bench`). Counting goes through bounded.ts so that no text, however hostile,
 * costs more than linear time: ordinary text keeps its exact count.
 */
export class O200kTokenizer implements Tokenizer {
  readonly name = 'gpt-tokenizer/o200k_base';
  private bpe: Bpe | undefined;

  constructor(private readonly limits: CountLimits = DEFAULT_COUNT_LIMITS) {}

  count(text: string): number {
    return this.measure(text).tokens;
  }

  /** The count with how it was obtained: pieces cut, characters estimated past the cap or the budget. */
  measure(text: string): TokenCount {
    if (text.length === 0) return { tokens: 0, cuts: 0, estimatedChars: 0 };
    this.bpe ??= loadO200k();
    return countBounded(text, this.bpe, this.limits);
  }
}

/**
 * Required on first use, not imported: building the BPE tables takes ~170 ms, which must not land on
 * the extension's activation or on a CLI command that never counts.
 */
function loadO200k(): Bpe {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { countTokens, O200K_TOKEN_SPLIT_REGEX } = require('./o200k') as typeof O200k;
  // Our own copy: the library's instance keeps its matching position in `lastIndex`.
  return { count: (text) => countTokens(text, AS_TEXT), splitRegex: new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags) };
}

/** Four characters per token: for callers that need a size before the BPE table is loaded. */
export const charEstimateTokenizer: Tokenizer = {
  name: 'chars/4',
  count: (text) => Math.ceil(text.length / 4),
};
