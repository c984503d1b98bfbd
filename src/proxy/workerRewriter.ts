// The live rewrite on a worker thread. Parsing a request of up to 32 MB, a batch of the engine and
// writing the new body took 50–465 ms of the proxy's one thread, and every other stream (and, in
// Start Live Proxy, VS Code's extension host) waited that long. Here the proxy's thread only hands
// the body over (shared memory, no copy) and gets the answer back; one worker runs the rewriter and
// keeps its session state, taking requests in the order they came. A worker that fails, runs out of
// its memory or does not answer in time costs a fail-open (the agent's bytes, unchanged, with the
// reason in the event), and the next request starts a fresh one: it has forgotten the sessions'
// edits, which costs one cache rewrite, never a wrong context.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ProxyUsage } from './events';
import type { FormatName } from './formats/format';
import { originalRewrite, type Rewrite, type Rewriting } from './rewrite';
import type { SentRequest } from './session';
import { piecesOf, type FromWorker, type SentBody, type ToWorker, type WorkerSetup } from './workerMessages';
import type { Result } from '../base/result';

/** Past this a request goes as it came and the worker is replaced: a batch under load takes seconds at most. */
export const WORKER_TIMEOUT_MS = 30_000;

/**
 * The worker's own heap, within the proxy's 300 MB beside the bodies held (96 MB) and the main
 * thread (~70 MB): 64 sessions' edits and a batch on a 1M-token conversation (about 4 MB of JSON)
 * fit; a request that needs more fails open, named, instead of growing the process. (Less, 48 MB,
 * did not lower the soak's peak: what is left of it is not the worker's heap.)
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 80, maxYoungGenerationSizeMb: 8 } as const;

/** How the worker is started: its script, or code that runs it (from source). */
export interface WorkerEntry {
  code: string;
  eval: boolean;
}

/**
 * The bundle's `proxy-worker.js` beside this file (dist/, next to extension.js and cli-main.js), or
 * from source (tests, benchmarks through tsx) `worker.ts` loaded through tsx: Node 20 does not apply
 * the parent's `--import tsx` to a worker's entry. Null when neither is there.
 */
export function workerEntry(dir: string = __dirname): WorkerEntry | null {
  const bundled = join(dir, 'proxy-worker.js');
  if (existsSync(bundled)) return { code: bundled, eval: false };
  const source = join(dir, 'worker.ts');
  if (!existsSync(source)) return null;
  const from = JSON.stringify(source);
  return { code: `const load = require('node:module').createRequire(${from}); load('tsx/cjs'); load(${from});`, eval: true };
}

interface Waiting {
  worker: Worker;
  /** The request's bytes as the caller holds them, for a fail-open. */
  raw: Buffer;
  bytes: number;
  started: number;
  timer: NodeJS.Timeout;
  resolve: (rewrite: Rewrite) => void;
}

interface Warming {
  worker: Worker;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class WorkerRewriter implements Rewriting {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private readonly warming = new Map<number, Warming>();
  /** The shared buffers the current worker was given, by their number there (workerMessages.ts). */
  private readonly adopted = new Map<SharedArrayBuffer, number>();
  private nextShared = 0;

  constructor(
    private readonly setup: WorkerSetup,
    private readonly entry: WorkerEntry,
    private readonly log: (line: string) => void = () => undefined,
    private readonly timeoutMs = WORKER_TIMEOUT_MS,
  ) {
    // Started with the proxy, off its thread: by the agent's first request it is up (the engine's
    // warm-up still waits for warmUp()).
    this.running();
  }

  /**
   * Sends `raw` to the worker: a body in shared memory (the server's BodyPool) is read there where it
   * is, any other (small, or an inflated copy) is copied with the message. A changed body comes back
   * as pieces of `raw` and the new bytes: the caller keeps `raw` until the request is sent.
   */
  rewrite(raw: Buffer, format: FormatName = 'anthropic-messages', path = '/v1/messages'): Promise<Rewrite> {
    const started = performance.now();
    const worker = this.running();
    if (!worker.ok) return Promise.resolve(originalRewrite(raw, 'failed-open', worker.error, 0));
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.replace(worker.value, `rewrite worker: no answer in ${this.timeoutMs} ms, restarted`), this.timeoutMs);
      this.waiting.set(id, { worker: worker.value, raw, bytes: raw.length, started, timer, resolve });
      const message: ToWorker = { kind: 'rewrite', id, body: this.sent(worker.value, raw), format, path };
      worker.value.postMessage(message);
    });
  }

  /** The pool let this buffer go: the worker lets go of it too. */
  forget(memory: SharedArrayBuffer): void {
    const shared = this.adopted.get(memory);
    if (shared === undefined) return;
    this.adopted.delete(memory);
    const message: ToWorker = { kind: 'forget', shared };
    this.worker?.postMessage(message);
  }

  /** How the worker gets `raw`: a shared buffer by its number (given first, once), anything else as a copy. */
  private sent(worker: Worker, raw: Buffer): SentBody {
    const memory = raw.buffer;
    if (!(memory instanceof SharedArrayBuffer) || raw.byteOffset !== 0) return { bytes: raw };
    let shared = this.adopted.get(memory);
    if (shared === undefined) {
      shared = this.nextShared++;
      this.adopted.set(memory, shared);
      const adopt: ToWorker = { kind: 'adopt', shared, memory };
      worker.postMessage(adopt);
    }
    return { shared, length: raw.length };
  }

  recordUsage(session: string, sentBytes: number, usage: ProxyUsage, sent: SentRequest | null = null): void {
    // No worker: the one that rewrote this request is gone, and its sessions with it.
    const message: ToWorker = { kind: 'usage', session, sentBytes, usage, sent };
    this.worker?.postMessage(message);
  }

  warmUp(): Promise<void> {
    const worker = this.running();
    if (!worker.ok) return Promise.reject(new Error(worker.error));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.warming.set(id, { worker: worker.value, resolve, reject });
      const message: ToWorker = { kind: 'warm-up', id };
      worker.value.postMessage(message);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    this.lost(worker, 'rewrite worker: the proxy stopped');
    await worker.terminate();
  }

  private running(): Result<Worker> {
    if (this.worker) return { ok: true, value: this.worker };
    try {
      const worker = new Worker(this.entry.code, { eval: this.entry.eval, workerData: this.setup, resourceLimits: WORKER_LIMITS });
      // The server keeps the process alive while it listens; the worker alone must not.
      worker.unref();
      worker.on('message', (message: FromWorker) => this.heard(message));
      worker.on('error', (error) => this.lost(worker, `rewrite worker: ${error.message}`));
      worker.on('exit', (code) => this.lost(worker, `rewrite worker: exited (code ${code})`));
      this.worker = worker;
      // A new worker is given the shared buffers afresh.
      this.adopted.clear();
      return { ok: true, value: worker };
    } catch (error) {
      return { ok: false, error: `rewrite worker: cannot start (${error instanceof Error ? error.message : String(error)})` };
    }
  }

  private heard(message: FromWorker): void {
    if (message.kind === 'log') return this.log(message.line);
    if (message.kind === 'warmed') {
      const warm = this.warming.get(message.id);
      this.warming.delete(message.id);
      if (message.error === null) warm?.resolve();
      else warm?.reject(new Error(message.error));
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    clearTimeout(waiting.timer);
    const { body, ...rewrite } = message.rewrite;
    // The time added is the proxy's, queue and hand-over included, not only the worker's.
    waiting.resolve({ ...rewrite, pieces: body ? piecesOf(waiting.raw, body) : [waiting.raw], addedMs: performance.now() - waiting.started });
  }

  /** A worker that did not answer in time is ended; everything it held goes as it came. */
  private replace(worker: Worker, why: string): void {
    this.lost(worker, why);
    void worker.terminate();
  }

  /** The worker is gone (failed, out of memory, ended): what waited on it fails open with the reason. */
  private lost(worker: Worker, why: string): void {
    if (this.worker === worker) {
      this.worker = null;
      this.log(why);
    }
    for (const [id, waiting] of this.waiting) {
      if (waiting.worker !== worker) continue;
      this.waiting.delete(id);
      clearTimeout(waiting.timer);
      waiting.resolve(originalRewrite(waiting.raw, 'failed-open', why, performance.now() - waiting.started, { agentTokens: Math.round(waiting.bytes * 0.25) }));
    }
    for (const [id, warm] of this.warming) {
      if (warm.worker !== worker) continue;
      this.warming.delete(id);
      warm.reject(new Error(why));
    }
  }
}
