// A set of strings that answers "certainly not in it" or "maybe": a Bloom filter of 64 Kibit (8 KiB,
// kept in a history index as base64). A reader that needs to know whether a record named by some key
// was ever written asks it before searching a file: a key it never saw costs nothing, a key it may
// have seen costs the search it would have cost anyway, so answers stay exact. Agent-neutral.

const BITS = 1 << 16;
const PROBES = 4;

export class KeyFilter {
  private constructor(private readonly bits: Uint8Array) {}

  static empty(): KeyFilter {
    return new KeyFilter(new Uint8Array(BITS / 8));
  }

  /** From `toBase64()`; null when the text is not one. */
  static fromBase64(text: unknown): KeyFilter | null {
    if (typeof text !== 'string') return null;
    const bytes = Buffer.from(text, 'base64');
    return bytes.length === BITS / 8 ? new KeyFilter(new Uint8Array(bytes)) : null;
  }

  add(key: string): void {
    for (const bit of probes(key)) this.bits[bit >> 3] = (this.bits[bit >> 3] as number) | (1 << (bit & 7));
  }

  /** False: `add` was never called with this key. */
  mayHave(key: string): boolean {
    return probes(key).every((bit) => ((this.bits[bit >> 3] as number) & (1 << (bit & 7))) !== 0);
  }

  toBase64(): string {
    return Buffer.from(this.bits).toString('base64');
  }
}

/** PROBES bit positions from two FNV-1a hashes of the key (double hashing). */
function probes(key: string): number[] {
  let first = 0x811c9dc5;
  let second = 0x01000193;
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
  }
  const step = (second | 1) >>> 0;
  return Array.from({ length: PROBES }, (_, index) => ((first >>> 0) + index * step) % BITS);
}
