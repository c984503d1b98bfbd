// Counting with a BPE costs time quadratic in the length of one pre-token: gpt-tokenizer's merge
// loop rescans the whole piece after every merge. One run without spaces (base64 of zero bytes, a
// Japanese paragraph, a line of emoji) is a single piece, and 256 KB of it took minutes. Here the
// text is handed over in segments cut between pieces, which leaves the count unchanged (cuts.ts
// finds such places cheaply in ordinary text; otherwise the BPE's own pre-tokenizer walks it); only
// pieces longer than `pieceChars` are cut into chunks, and only past a length cap or a time budget
// is the rest estimated.
import { mayHoldPieceOver, safeCut } from './cuts';

export interface TokenCount {
  tokens: number;
  /**
   * Over-long pieces were cut this many times. The BPE restarts on each side of a cut, which splits
   * a token and redoes the merges next to it: each cut moves the count by at most
   * `MAX_ERROR_PER_CUT` tokens. With 256-character chunks that is under 1 % for CJK or emoji (about
   * one token per character) and 0 for a run of one letter or of spaces (the cut falls between tokens).
   */
  cuts: number;
  /** Characters past the cap or the time budget, counted at a calibrated rate: the count is an estimate. */
  estimatedChars: number;
}

/** Stated error bound per cut: measured (5,000 random runs against the exact count), not proven; a property test keeps it. */
export const MAX_ERROR_PER_CUT = 2;

export interface CountLimits {
  /** Longest piece handed whole to the BPE. A multiple of 128 so runs of one letter or of spaces cut between tokens. */
  pieceChars: number;
  /** Pieces are handed over in segments of about this many characters; the clock is read between segments. */
  segmentChars: number;
  /** Characters counted by the BPE at most; the rest is estimated. */
  maxExactChars: number;
  /** Time the BPE may take for one text; the rest is estimated. */
  timeBudgetMs: number;
}

export const DEFAULT_COUNT_LIMITS: CountLimits = {
  pieceChars: 256,
  segmentChars: 16_384,
  maxExactChars: 4 * 1024 * 1024,
  timeBudgetMs: 1_000,
};

/**
 * o200k characters per token on this repository's sources (474,422 chars, 114,881 tokens): used
 * for the estimate only when too little of the text was counted to calibrate on the text itself.
 */
export const DEFAULT_CHARS_PER_TOKEN = 4.1;
/** Counted characters needed before the text's own rate is trusted for the estimate. */
const CALIBRATION_CHARS = 1_024;

export interface Bpe {
  /** Exact BPE count of a text (cost quadratic in its longest piece). */
  count(text: string): number;
  /** The BPE's pre-tokenizer, with the `g` flag. */
  readonly splitRegex: RegExp;
}

/**
 * Counts `text` in time linear in its length. Texts without a piece over `limits.pieceChars`, within
 * the cap and the budget, get exactly the BPE's count.
 */
export function countBounded(text: string, bpe: Bpe, limits: CountLimits = DEFAULT_COUNT_LIMITS, now: () => number = () => performance.now()): TokenCount {
  if (text.length <= limits.pieceChars) return { tokens: bpe.count(text), cuts: 0, estimatedChars: 0 };
  const deadline = now() + limits.timeBudgetMs;
  let tokens = 0;
  let cuts = 0;
  let counted = 0; // everything before this index is counted
  let stopped = false;
  const outOfBudget = () => counted >= limits.maxExactChars || now() >= deadline;
  const countUpTo = (end: number) => {
    if (end > counted) tokens += bpe.count(text.slice(counted, end));
    counted = end;
  };

  // Ordinary text: segments cut at cheap safe places, no pre-tokenizer pass of our own.
  if (!mayHoldPieceOver(text, limits.pieceChars)) {
    while (counted < text.length && !stopped) {
      const cut = safeCut(text, counted + limits.segmentChars, counted + 2 * limits.segmentChars);
      if (cut === undefined) break; // no safe place in reach: the walk below takes over
      countUpTo(cut);
      stopped = outOfBudget();
    }
  }

  // Otherwise walk the pieces: segments end between pieces, over-long pieces are cut into chunks.
  const split = bpe.splitRegex;
  split.lastIndex = counted;
  while (!stopped) {
    const match = split.exec(text);
    if (match === null) break;
    const start = match.index;
    const end = start + match[0].length;
    if (end - start > limits.pieceChars) {
      countUpTo(start);
      while (counted < end && !stopped) {
        if (counted > start) cuts += 1;
        countUpTo(chunkEnd(text, Math.min(end, counted + limits.pieceChars), end));
        stopped = outOfBudget();
      }
    } else if (end - counted >= limits.segmentChars) {
      countUpTo(end);
      stopped = outOfBudget();
    }
  }
  split.lastIndex = 0;
  if (!stopped) countUpTo(text.length);

  const estimatedChars = text.length - counted;
  if (estimatedChars === 0) return { tokens, cuts, estimatedChars };
  const charsPerToken = counted >= CALIBRATION_CHARS && tokens > 0 ? counted / tokens : DEFAULT_CHARS_PER_TOKEN;
  return { tokens: tokens + Math.ceil(estimatedChars / charsPerToken), cuts, estimatedChars };
}

/** Moves a cut off the middle of a surrogate pair, so no chunk holds half an emoji. */
function chunkEnd(text: string, to: number, pieceEnd: number): number {
  const code = text.charCodeAt(to);
  return to < pieceEnd && code >= 0xdc00 && code <= 0xdfff ? to + 1 : to;
}
