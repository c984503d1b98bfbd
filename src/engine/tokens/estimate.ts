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

/** The kind of each ASCII character; accented Latin, Greek, Cyrillic count as letters, CJK, emoji and the rest as wide. */
const ASCII_KINDS = new Uint8Array(0x80).fill(Kind.Punctuation);
for (const [from, to, kind] of [
  [0x61, 0x7a, Kind.Letter],
  [0x41, 0x5a, Kind.Letter],
  [0x5f, 0x5f, Kind.Letter],
  [0x30, 0x39, Kind.Digit],
  [0x20, 0x20, Kind.Space],
  [0x09, 0x09, Kind.Space],
  [0x0a, 0x0a, Kind.Newline],
  [0x0d, 0x0d, Kind.Newline],
] as const)
  ASCII_KINDS.fill(kind, from, to + 1);

const kindOf = (code: number): Kind => (code < 0x80 ? (ASCII_KINDS[code] as Kind) : code < 0x2000 ? Kind.Letter : Kind.Wide);

/** What one run of a kind costs. A space run is joined to the next word; only several spaces (indentation) cost one. */
function runTokens(kind: Kind, run: number): number {
  if (kind === Kind.Letter) return Math.ceil(run / WORD_CHARS);
  if (kind === Kind.Digit) return Math.ceil(run / DIGIT_CHARS);
  if (kind === Kind.Punctuation) return Math.ceil(run / PUNCTUATION_CHARS);
  if (kind === Kind.Wide) return run;
  return run > 1 ? 1 : 0;
}

/**
 * Estimated o200k tokens of `text`, in one pass without allocation. Run by run, each run's end
 * found by an inner loop: a new process runs this cold (interpreted) over every item of a context,
 * so what matters is how little is done per character.
 */
export function estimateTokens(text: string): number {
  const length = text.length;
  let tokens = 0;
  let index = 0;
  while (index < length) {
    const kind = kindOf(text.charCodeAt(index));
    let end = index + 1;
    if (kind === Kind.Newline) {
      // A line break and the indentation after it are one token.
      while (end < length) {
        const next = kindOf(text.charCodeAt(end));
        if (next !== Kind.Newline && next !== Kind.Space) break;
        end++;
      }
      tokens += 1;
    } else {
      while (end < length && kindOf(text.charCodeAt(end)) === kind) end++;
      tokens += runTokens(kind, end - index);
    }
    index = end;
  }
  return tokens;
}

export const estimateTokenizer: Tokenizer = { name: 'estimate', count: estimateTokens };
