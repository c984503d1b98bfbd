// Texts that made the unbounded BPE superlinear (one pre-token each, or nearly), shared by the
// tests and bench/tokenizer.bench.ts. Deterministic, so counts and timings compare across runs.

const KANJI_FROM = 0x4e00; // CJK Unified Ideographs
const EMOJI_FROM = 0x1f300; // Miscellaneous Symbols and Pictographs

/** `kanji` and `emoji` cycle through a block with a stride, so neighbours differ like in real text. */
function cycle(count: number, from: number, span: number, make: (code: number) => string): string {
  return Array.from({ length: count }, (_, index) => make(from + ((index * 7919) % span))).join('');
}

/** A minified-JS-like line: no spaces, long identifiers, nested brackets, string literals. */
function minified(chars: number): string {
  const unit = 'function(e,t){var n=e.exports;return n.__esModule?n.default:n}(0,r.createElement)("div",{className:"x-"+i.toString(36)}),';
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

export interface WorstCase {
  name: string;
  text: string;
}

/** The hostile inputs of issue 12 at the sizes it reported (`kb` scales them for the benchmark). */
export function worstCases(kb = 256): WorstCase[] {
  const chars = kb * 1024;
  return [
    { name: `${kb} KB of "a"`, text: 'a'.repeat(chars) },
    { name: `${kb} KB base64 of zero bytes`, text: Buffer.alloc((chars / 4) * 3).toString('base64') },
    { name: `${kb} KB CJK without punctuation`, text: cycle(chars, KANJI_FROM, 2_000, (code) => String.fromCharCode(code)) },
    { name: `${kb / 2} KB emoji`, text: cycle(chars / 4, EMOJI_FROM, 600, (code) => String.fromCodePoint(code)) },
    { name: `${kb} KB minified JS`, text: minified(chars) },
    { name: `${kb} KB of spaces`, text: ' '.repeat(chars) },
  ];
}
