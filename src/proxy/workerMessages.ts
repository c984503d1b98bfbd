// What the proxy's thread and its rewrite thread (worker.ts) say to each other, and how bodies cross
// between them without being copied: the request in shared memory (read where it is, and still
// there to be sent, changed or not), and a rewritten body as spans of the request's own bytes and
// the few new bytes between them, which the proxy's thread sends as they are. Each shared buffer
// (bodyPool.ts) is given to the worker once, by number, and forgotten when the pool lets it go: a
// buffer sent with every request left one more object over it in the worker each time, and the
// memory stayed until the worker's collector ran.
import type { ProxyUsage } from './events';
import type { FormatName } from './formats/format';
import type { LiveDirs, LiveOptions, Rewrite } from './rewrite';
import type { SentRequest } from './session';

/** The worker's start-up data: what the LiveRewriter is made with. */
export interface WorkerSetup {
  options: LiveOptions;
  dirs: LiveDirs;
}

/**
 * A rewritten body without its bytes: `spans` are triples (source, from, to), source 0 the request's
 * own bytes and 1 `inserted` (the stubs, one small buffer of its own, handed over).
 */
export interface SplicedBody {
  spans: number[];
  inserted: Uint8Array;
}

/** A request's bytes: the first `length` of a shared buffer the worker was given, or a copy (a small or inflated body). */
export type SentBody = { shared: number; length: number } | { bytes: Uint8Array };

export type ToWorker =
  | { kind: 'rewrite'; id: number; body: SentBody; format: FormatName; path: string }
  | { kind: 'adopt'; shared: number; memory: SharedArrayBuffer }
  | { kind: 'forget'; shared: number }
  | { kind: 'usage'; session: string; sentBytes: number; usage: ProxyUsage; sent: SentRequest | null }
  | { kind: 'warm-up'; id: number };

export type FromWorker =
  | { kind: 'rewritten'; id: number; rewrite: Omit<Rewrite, 'pieces'> & { body: SplicedBody | null } }
  | { kind: 'warmed'; id: number; error: string | null }
  | { kind: 'log'; line: string };

/** A Buffer over what arrived (a message turns a Buffer into a plain Uint8Array), without a copy. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const RAW = 0;
const INSERTED = 1;

/** Whether `piece` is a view of `raw`'s bytes. */
function within(raw: Buffer, piece: Buffer): boolean {
  return piece.buffer === raw.buffer && piece.byteOffset >= raw.byteOffset && piece.byteOffset + piece.length <= raw.byteOffset + raw.length;
}

/**
 * The pieces of a rewritten body (scan.ts Splice) said as spans: views of `raw` by their place, every
 * other piece copied into one new buffer. A stub shares Node's pool of small buffers, which a message
 * would copy whole (8 KB for a 200-byte stub), so it is never sent as it is.
 */
export function splicedOver(raw: Buffer, pieces: readonly Buffer[]): SplicedBody {
  const spans: number[] = [];
  let insertedBytes = 0;
  for (const piece of pieces) if (!within(raw, piece)) insertedBytes += piece.length;
  const inserted = new Uint8Array(insertedBytes);
  let at = 0;
  for (const piece of pieces) {
    if (within(raw, piece)) {
      const from = piece.byteOffset - raw.byteOffset;
      spans.push(RAW, from, from + piece.length);
      continue;
    }
    inserted.set(piece, at);
    spans.push(INSERTED, at, at + piece.length);
    at += piece.length;
  }
  return { spans, inserted };
}

/** The pieces `splicedOver` described, over the proxy's own copy of the request: views, no copy. */
export function piecesOf(raw: Buffer, body: SplicedBody): Buffer[] {
  const inserted = asBuffer(body.inserted);
  const pieces: Buffer[] = [];
  for (let i = 0; i + 2 < body.spans.length; i += 3) {
    const [source, from, to] = [body.spans[i], body.spans[i + 1]!, body.spans[i + 2]!];
    pieces.push((source === RAW ? raw : inserted).subarray(from, to));
  }
  return pieces;
}
