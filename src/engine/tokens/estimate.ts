// A token count without the BPE tables. Building o200k's tables costs a few hundred milliseconds
// and tens of megabytes, which a command that only shows how the provider's exact total is shared
// out (inspect, the gauge's breakdown) need not pay: there the total comes from the recorded usage
// and this estimate only decides the shares (see scale.ts). One pass over the characters, counting
// what a BPE tends to make one token of: a word with its leading space, up to three digits, a run
// of punctuation, a line break with its indentation, one CJK character.
import type { Tokenizer } from './tokenizer';

/**
 * Characters of one letter run that o200k keeps as one token: longer words and identifiers are cut
 * about this often. Calibrated with the two below against o200k on the recorded transcripts
 * (test/unit/engine/tokens/estimate.test.ts keeps the shares within bounds).
 */
const WORD_CHARS = 8;
/** o200k cuts digit runs into groups of three. */
const DIGIT_CHARS = 3;
/** Punctuation merges in pairs and triples (`":"`, `},{`, `();`). */
const PUNCTUATION_CHARS = 2;

const enum Kind {
  Letter,
  Digit,
  Space,
  Newline,
  Punctuation,
  Wide,
}

function kindOf(code: number): Kind {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f) return Kind.Letter;
  if (code >= 0x30 && code <= 0x39) return Kind.Digit;
  if (code === 0x20 || code === 0x09) return Kind.Space;
  if (code === 0x0a || code === 0x0d) return Kind.Newline;
  if (code < 0x80) return Kind.Punctuation;
  // Accented Latin, Greek, Cyrillic: letters of a word. CJK, emoji and the rest: about one token each.
  return code < 0x2000 ? Kind.Letter : Kind.Wide;
}

/** Estimated o200k tokens of `text`, in one pass without allocation. */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let run = 0;
  let current: Kind | -1 = -1;
  const close = (): void => {
    if (run === 0) return;
    if (current === Kind.Letter) tokens += Math.ceil(run / WORD_CHARS);
    else if (current === Kind.Digit) tokens += Math.ceil(run / DIGIT_CHARS);
    else if (current === Kind.Punctuation) tokens += Math.ceil(run / PUNCTUATION_CHARS);
    else if (current === Kind.Newline) tokens += 1;
    else if (current === Kind.Wide) tokens += run;
    // A space run is joined to the next word; only runs of several spaces (indentation) cost one.
    else if (current === Kind.Space && run > 1) tokens += 1;
    run = 0;
  };
  for (let index = 0; index < text.length; index++) {
    const kind = kindOf(text.charCodeAt(index));
    // Indentation after a line break is part of the break's token.
    if (kind !== current && !(kind === Kind.Space && current === Kind.Newline)) {
      close();
      current = kind;
    }
    run += 1;
  }
  close();
  return tokens;
}

export const estimateTokenizer: Tokenizer = { name: 'estimate', count: estimateTokens };
