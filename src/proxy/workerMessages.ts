// What the proxy's thread and its rewrite thread (worker.ts) say to each other, and how a body
// crosses between them without being copied: in shared memory (the request as read, which the
// proxy still sends when the rewrite changes nothing or fails) or handed over (a body the sender
// no longer needs: an inflated copy, a rewritten body).
import type { ProxyUsage } from './events';
import type { LiveDirs, LiveOptions, Rewrite } from './rewrite';
import type { SentRequest } from './session';

/** The worker's start-up data: what the LiveRewriter is made with. */
export interface WorkerSetup {
  options: LiveOptions;
  dirs: LiveDirs;
}

export type ToWorker =
  | { kind: 'rewrite'; id: number; body: Uint8Array }
  | { kind: 'usage'; session: string; sentBytes: number; usage: ProxyUsage; sent: SentRequest | null }
  | { kind: 'warm-up'; id: number };

export type FromWorker =
  | { kind: 'rewritten'; id: number; rewrite: Omit<Rewrite, 'body'> & { body: Uint8Array | null } }
  | { kind: 'warmed'; id: number; error: string | null }
  | { kind: 'log'; line: string };

/** A Buffer over what arrived (a message turns a Buffer into a plain Uint8Array), without a copy. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The bytes are the whole of an ArrayBuffer of their own, so it can be handed over: never a slice
 * of Node's shared pool of small buffers (handing that over would empty every buffer in it).
 */
export function ownsItsMemory(bytes: Uint8Array): boolean {
  return !(bytes.buffer instanceof SharedArrayBuffer) && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/** A buffer of `size` bytes in memory both threads see: the body is read into it once. */
export function sharedBuffer(size: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(size));
}
