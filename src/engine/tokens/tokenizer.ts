// Token counting behind one small interface, so the engine, its tests and the worker can swap the
// implementation (exact BPE, cached, or a stub that throws to test fail-open).
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}

/**
 * o200k BPE via js-tiktoken. Claude's own tokenizer is not public; o200k is close enough for
 * relative sizes, and the context total is corrected to the provider's exact usage anyway
 * (see scale.ts). The rank table takes about a second to parse, so it is loaded on first use.
 */
export class TiktokenTokenizer implements Tokenizer {
  readonly name = 'js-tiktoken/o200k_base';
  private encoder: Tiktoken | undefined;

  count(text: string): number {
    if (text.length === 0) return 0;
    this.encoder ??= new Tiktoken(o200kBase);
    // Empty special-token lists: transcripts may quote `<|endoftext|>` and must be counted, not rejected.
    return this.encoder.encode(text, [], []).length;
  }
}

/** Four characters per token: for callers that need a size before the BPE table is loaded. */
export const charEstimateTokenizer: Tokenizer = {
  name: 'chars/4',
  count: (text) => Math.ceil(text.length / 4),
};
