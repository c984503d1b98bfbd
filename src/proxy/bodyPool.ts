// Request bodies in shared memory, reused. The proxy reads each body into memory its rewrite thread
// also sees (workerMessages.ts). A SharedArrayBuffer is only freed once the garbage collectors of
// both threads have let go of every object over it, and neither counts it as memory to collect
// for: a fresh one per request (64 sessions of ~300 KB bodies, 350 requests/s) left 100+ MB of
// them waiting, and one sent back through the worker per request 500 MB. Here an ended request
// gives its buffer back and the next body of about its size is read into it; the rewrite thread
// is given each buffer once and told when it is let go (onDrop), so what both hold is what is in
// flight plus the free buffers of the busiest moment so far (capped), let go when the proxy goes quiet.

/** Bodies under this get an ordinary buffer of their own (copied to the rewrite thread): small, and many sizes. */
export const POOLED_FROM_BYTES = 64 * 1024;
/**
 * What the pool's buffers may come to in all, in use and free: above the held-body budget (96 MB) and
 * its size classes, so bodies in use always fit; past it free buffers are let go before a new one is
 * made. Under a steady load nothing is let go: a buffer let go while busy is freed only at the next
 * full collection (a cap of 8–16 MB on free buffers took the soak to 380–460 MB).
 */
export const DEFAULT_MAX_POOL_BYTES = 128 * 1024 * 1024;
/** With no body taken for this long, the free buffers are let go (an idle proxy holds none). */
export const DEFAULT_IDLE_MS = 10_000;

/**
 * The capacity a body of `size` bytes is read into: eight steps per doubling, so a buffer is at most
 * 12.5 % larger than its body and bodies of nearby sizes share buffers.
 */
export function sizeClass(size: number): number {
  if (size <= POOLED_FROM_BYTES) return POOLED_FROM_BYTES;
  const step = 2 ** Math.max(0, Math.ceil(Math.log2(size)) - 4);
  return Math.ceil(size / step) * step;
}

export class BodyPool {
  private readonly free = new Map<number, SharedArrayBuffer[]>();
  /** Buffers in use (taken, not given back): only those are taken back. */
  private readonly inUse = new WeakSet<SharedArrayBuffer>();
  private freeBytes = 0;
  /** All the pool's buffers, in use and free. */
  private poolBytes = 0;
  private lastTaken = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    /** Told of each buffer let go, so the rewrite thread lets go of it too. */
    private readonly onDrop: (memory: SharedArrayBuffer) => void = () => undefined,
    readonly maxPoolBytes = DEFAULT_MAX_POOL_BYTES,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  /** `size` bytes, shared from POOLED_FROM_BYTES on (with what was in them before: the caller fills all of them). */
  take(size: number): Buffer {
    this.lastTaken = performance.now();
    if (size < POOLED_FROM_BYTES) return Buffer.alloc(size);
    const memory = this.reusable(size) ?? this.made(sizeClass(size));
    this.inUse.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /** A body whose request has ended (sent, answered or refused): its buffer may be reused at once. */
  give(body: Buffer): void {
    const memory = this.returned(body);
    if (!memory) return;
    const list = this.free.get(memory.byteLength) ?? [];
    list.push(memory);
    this.free.set(memory.byteLength, list);
    this.freeBytes += memory.byteLength;
    this.watchIdle();
  }

  /** A body whose buffer may still be read (its upload was cut mid-write): never reused, let go. */
  discard(body: Buffer): void {
    const memory = this.returned(body);
    if (memory) this.letGo(memory);
  }

  /** Bytes kept free for the next bodies. */
  get freeHeld(): number {
    return this.freeBytes;
  }

  /** Bytes of all the pool's buffers, in use and free. */
  get held(): number {
    return this.poolBytes;
  }

  private returned(body: Buffer): SharedArrayBuffer | null {
    const memory = body.buffer;
    if (!(memory instanceof SharedArrayBuffer) || !this.inUse.has(memory)) return null;
    this.inUse.delete(memory);
    return memory;
  }

  /**
   * The smallest free buffer for `size` bytes, of its size class up to twice its size, taken off the
   * free list: bodies of many sizes share few buffers, instead of the pool keeping some of every
   * size class (64 sessions whose bodies grow a turn at a time span 20-odd classes).
   */
  private reusable(size: number): SharedArrayBuffer | undefined {
    for (let capacity = sizeClass(size); capacity <= Math.max(POOLED_FROM_BYTES, 2 * size); capacity = sizeClass(capacity + 1)) {
      const memory = this.free.get(capacity)?.pop();
      if (memory) {
        this.freeBytes -= capacity;
        return memory;
      }
    }
    return undefined;
  }

  /** A new buffer; free ones are let go first (largest first) when the pool would pass its cap. */
  private made(capacity: number): SharedArrayBuffer {
    for (const size of [...this.free.keys()].sort((a, b) => b - a)) {
      const list = this.free.get(size)!;
      while (list.length > 0 && this.poolBytes + capacity > this.maxPoolBytes) {
        this.freeBytes -= size;
        this.letGo(list.pop()!);
      }
    }
    this.poolBytes += capacity;
    return new SharedArrayBuffer(capacity);
  }

  private letGo(memory: SharedArrayBuffer): void {
    this.poolBytes -= memory.byteLength;
    this.onDrop(memory);
  }

  /** Lets the free buffers go once no body was taken for idleMs. */
  private watchIdle(): void {
    if (this.idleTimer) return;
    const check = (): void => {
      const quiet = performance.now() - this.lastTaken;
      if (quiet < this.idleMs) {
        this.idleTimer = setTimeout(check, this.idleMs - quiet).unref();
        return;
      }
      this.idleTimer = null;
      for (const list of this.free.values()) for (const memory of list) this.letGo(memory);
      this.free.clear();
      this.freeBytes = 0;
    };
    this.idleTimer = setTimeout(check, this.idleMs).unref();
  }
}
