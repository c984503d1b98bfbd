// Worker-thread entry for token counting. The host bundles this file as its own entry point and
// passes that bundle's path to `TokenCountWorker`; the BPE table is then parsed and the counting
// done off the extension host's main thread, which must never block on a large context.
import { parentPort } from 'node:worker_threads';
import { defaultTokenizer } from './cache';

export interface CountRequest {
  id: number;
  texts: string[];
}

export type CountResponse = { id: number; counts: number[] } | { id: number; error: string };

/** The worker's whole job, exported so it is testable without a thread. */
export function handleCountRequest(request: CountRequest): CountResponse {
  try {
    const tokenizer = defaultTokenizer();
    return { id: request.id, counts: request.texts.map((text) => tokenizer.count(text)) };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (request: CountRequest) => parentPort?.postMessage(handleCountRequest(request)));
