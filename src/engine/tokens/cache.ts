// Counting the same tool output or file read again is the common case in agent transcripts (the
// whole context is re-counted on every new turn), so counts are memoised per content hash.
import { createHash } from 'node:crypto';
import { O200kTokenizer, type Tokenizer } from './tokenizer';

/** Below this length hashing costs about as much as counting, and the string itself is a small key. */
const HASH_FROM_CHARS = 256;

export function contentKey(text: string): string {
  return text.length < HASH_FROM_CHARS ? text : createHash('sha1').update(text).digest('base64');
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

export const DEFAULT_TOKEN_CACHE_ENTRIES = 50_000;

export class CachedTokenizer implements Tokenizer {
  readonly name: string;
  private readonly cache: LruCache<string, number>;
  hits = 0;
  misses = 0;

  constructor(
    private readonly inner: Tokenizer,
    capacity = DEFAULT_TOKEN_CACHE_ENTRIES,
  ) {
    this.name = `cached(${inner.name})`;
    this.cache = new LruCache(capacity);
  }

  count(text: string): number {
    const key = contentKey(text);
    const known = this.cache.get(key);
    if (known !== undefined) {
      this.hits += 1;
      return known;
    }
    this.misses += 1;
    const counted = this.inner.count(text);
    this.cache.set(key, counted);
    return counted;
  }
}

let shared: CachedTokenizer | undefined;

/** One process-wide cached o200k tokenizer: the cache only pays off when it is shared. */
export function defaultTokenizer(): CachedTokenizer {
  shared ??= new CachedTokenizer(new O200kTokenizer());
  return shared;
}
