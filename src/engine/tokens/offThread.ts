// Main-thread side of off-thread counting: one long-lived worker (the BPE table is parsed once),
// requests matched to answers by id. The worker is unref'd so an idle counter never keeps the
// process alive.
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { CountRequest, CountResponse } from './worker';

interface Pending {
  resolve(counts: number[]): void;
  reject(error: Error): void;
}

export class TokenCountWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /**
   * @param script path or URL of the bundled worker.ts (the host's build decides where it lives).
   * @param options passed to `Worker`, e.g. `execArgv` to load a TypeScript loader in tests.
   */
  constructor(script: string | URL, options: WorkerOptions = {}) {
    this.worker = new Worker(script, options);
    this.worker.unref();
    this.worker.on('message', (response: CountResponse) => this.settle(response));
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => this.failAll(new Error(`token worker exited with code ${code}`)));
  }

  count(texts: string[]): Promise<number[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: CountRequest = { id, texts };
      this.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private settle(response: CountResponse): void {
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    if ('error' in response) waiting.reject(new Error(response.error));
    else waiting.resolve(response.counts);
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
