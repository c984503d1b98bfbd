// Content keys and a small LRU map: equal texts (the same tool output read again) get equal keys
// without keeping or comparing the whole text, and caches keyed by them stay bounded.
import type * as NodeCrypto from 'node:crypto';

/** Below this length hashing costs about as much as comparing, and the string itself is a small key. */
const HASH_FROM_CHARS = 256;

export function contentKey(text: string): string {
  return text.length < HASH_FROM_CHARS ? text : sha1(text);
}

/** node:crypto on first use: only truncation keys long texts, and loading it costs ~10 ms of every command. */
function sha1(text: string): string {
  return (process.getBuiltinModule('node:crypto') as typeof NodeCrypto).createHash('sha1').update(text).digest('base64');
}

/** A Map used as LRU: re-inserting on hit moves the entry to the end, eviction takes the first. */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`LRU capacity must be ≥ 1, got ${capacity}`);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
}
