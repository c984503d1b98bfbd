// The engine counts tokens synchronously; parsing the BPE table and counting a large context would
// block the extension host. This tokenizer answers from counts the worker thread produced; texts it
// has not seen are estimated and remembered, so the caller can count them off-thread and build again.
import { charEstimateTokenizer, type Tokenizer } from '../../engine';
import { LruCache, contentKey, DEFAULT_TOKEN_CACHE_ENTRIES } from '../../engine/tokens/cache';

export interface CountTexts {
  count(texts: string[]): Promise<number[]>;
}

export class WorkerTokenizer implements Tokenizer {
  readonly name = 'o200k (worker)';
  private readonly counts = new LruCache<string, number>(DEFAULT_TOKEN_CACHE_ENTRIES);
  private missing = new Map<string, string>();

  constructor(private readonly worker: CountTexts) {}

  count(text: string): number {
    const key = contentKey(text);
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    this.missing.set(key, text);
    return charEstimateTokenizer.count(text);
  }

  /** True when some text was estimated since the last `fetchMissing`. */
  get hasMissing(): boolean {
    return this.missing.size > 0;
  }

  /** Counts every estimated text on the worker; afterwards `count` answers them exactly. */
  async fetchMissing(): Promise<void> {
    const missing = this.missing;
    this.missing = new Map();
    const keys = [...missing.keys()];
    const counts = await this.worker.count([...missing.values()]);
    keys.forEach((key, index) => this.counts.set(key, counts[index] ?? 0));
  }
}
