// Where a text may be cut before the BPE without changing its count, found without running the
// pre-tokenizer: on ordinary text that regex costs as much as the BPE itself, so bounded.ts runs it
// only when this cheap scan cannot rule out an over-long piece.
//
// The o200k pre-tokenizer makes four kinds of piece: letters (one optional leading non-letter, then
// letters and marks, then a contraction like 's or 'll), up to three digits, punctuation (one
// optional space, then punctuation, then any \r, \n or /), and whitespace. So a piece of n
// characters holds a run of at least n − 4 characters of one class, counting \r and \n after
// punctuation as punctuation. The scan below measures such runs over ASCII, where the class of a
// character is plain, and lets any non-ASCII character extend whatever run it is in: it may see a
// long run where there is no long piece (then the regex decides), never the reverse.

const NONE = 0;
const LETTER = 1;
const SPACE = 2;
const PUNCT = 3;

/** Longest piece a run shorter than `pieceChars - PIECE_SLACK` can belong to, see above. */
const PIECE_SLACK = 4;

function asciiClass(code: number): number {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return LETTER;
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return SPACE;
  return PUNCT;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isNewline = (code: number) => code === 0x0a || code === 0x0d;

/** False when no o200k piece of `text` is longer than `pieceChars`; true when one may be. */
export function mayHoldPieceOver(text: string, pieceChars: number): boolean {
  const limit = pieceChars - PIECE_SLACK;
  let kind = NONE; // class of the current run; NONE while it holds only non-ASCII characters
  let run = 0;
  let wild = 0; // non-ASCII characters at the end of the run: they also open the next one
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) {
      run += 1;
      wild += 1;
    } else if (isDigit(code)) {
      // Digits are pieces of their own (at most three) and end every other piece.
      kind = NONE;
      run = 0;
      wild = 0;
    } else {
      const next = isNewline(code) && kind === PUNCT ? PUNCT : asciiClass(code);
      run = next === kind || kind === NONE ? run + 1 : wild + 1;
      kind = next;
      wild = 0;
    }
    if (run >= limit) return true;
  }
  return false;
}

/**
 * A cut at or after `from` and before `before` (or the end of the text) that falls between two
 * pieces: whitespace right after an ASCII letter or digit, which end their piece and never start a
 * whitespace one. Undefined when there is none in that window.
 */
export function safeCut(text: string, from: number, before: number): number | undefined {
  if (from >= text.length) return text.length;
  const end = Math.min(before, text.length);
  for (let index = Math.max(from, 1); index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
      const previous = text.charCodeAt(index - 1);
      if (isDigit(previous) || asciiClass(previous) === LETTER) return index;
    }
  }
  return undefined;
}
