// Reading a request body within the proxy's memory budget: a per-request cap, a proxy-wide account
// of the bytes held (raw and inflated), fair turns between uploads, refused bodies drained and
// answered, compressed bodies inflated off the main thread and never past the cap.
import type { IncomingMessage } from 'node:http';
import { brotliDecompress, gunzip, inflate, type InputType, type ZlibOptions } from 'node:zlib';
import type { Result } from '../sessions/types';
import type { BodyPool } from './bodyPool';

/** Pieces of 64 KB a body gives per turn of the event loop. */
const PIECES_PER_TURN = 4;

/**
 * Called on each piece of a body: after PIECES_PER_TURN of them the body waits for the next turn of
 * the event loop. A socket otherwise gives up to 32 pieces in one turn, and 16 uploads at once held
 * every other stream 100–150 ms per turn; a refused body still drains fast enough to be answered.
 */
function takingTurns(request: IncomingMessage): () => void {
  let pieces = 0;
  return () => {
    if (++pieces < PIECES_PER_TURN) return;
    pieces = 0;
    request.pause();
    setImmediate(() => request.resume());
  };
}

/** How long a refused body may keep arriving before its connection is closed. */
const DRAIN_MS = 5_000;

export type BodyRead = Result<Buffer, { status: number; message: string }>;

/** The proxy-wide account of body bytes held in memory. */
export class HeldBytes {
  private held = 0;
  constructor(readonly max: number) {}

  take(bytes: number): boolean {
    if (this.held + bytes > this.max) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

export const busy = (held: HeldBytes): { status: number; message: string } => ({
  status: 503,
  message: `busy: request bodies in memory would pass ${held.max} bytes; retry shortly`,
});

/** How long a refused upload may take to arrive before it is answered anyway (and cut if it goes on). */
const ANSWER_WAIT_MS = 2_000;

/**
 * A refused body is read and thrown away, and answered once it has all arrived (or after
 * ANSWER_WAIT_MS): a client that sent `Connection: close` has its socket closed by Node right after
 * the answer, and one still uploading then saw EPIPE instead of the 413 (2 of 16 uploads of 60 MB).
 * One that keeps sending past the answer is cut.
 */
function discard(request: IncomingMessage, refusal: { status: number; message: string }): Promise<BodyRead> {
  request.on('data', takingTurns(request));
  request.resume();
  request.socket.setTimeout(DRAIN_MS, () => request.destroy());
  return new Promise((resolve) => {
    const answer = (): void => {
      clearTimeout(timer);
      resolve({ ok: false, error: refusal });
    };
    const timer = setTimeout(answer, ANSWER_WAIT_MS);
    if (request.complete) answer();
    request.once('end', answer);
    request.once('close', answer);
  });
}

/**
 * Reads the body within the per-request limit, counting each byte against `held` (the caller gives
 * back the body's length). A declared length is taken from `held` at once and the body copied into
 * one buffer as it arrives: joining 30 MB of pieces at the end stalled every other stream half a
 * second (fresh pages touched in one go).
 */
export function readBody(request: IncomingMessage, limit: number, held: HeldBytes, pool: BodyPool): Promise<BodyRead> {
  const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
  const tooLarge = { status: 413, message: `request body over ${limit} bytes` };
  if (declared !== null && declared > limit) return discard(request, tooLarge);
  if (declared !== null && !held.take(declared)) return discard(request, busy(held));
  // In shared memory: the rewrite thread reads it where it is, and it is still here to be sent.
  const whole = declared === null ? null : pool.take(declared);
  // A refused or cut body was read by no one: its buffer may be reused at once.
  const letGo = (): void => {
    if (whole) pool.give(whole);
  };
  const turn = takingTurns(request);
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    /** Refused mid-body: the answer is the refusal, and what it held is already given back. */
    let refused = false;
    /** What this body holds of the budget so far. */
    const taken = (): number => declared ?? size;
    const onData = (part: Buffer): void => {
      size += part.length;
      const refusal = size > limit ? tooLarge : whole !== null || held.take(part.length) ? null : busy(held);
      if (refusal === null) {
        if (whole) part.copy(whole, size - part.length);
        else parts.push(part);
        turn();
        return;
      }
      refused = true;
      held.give(declared ?? size - part.length);
      letGo();
      parts.length = 0;
      request.off('data', onData);
      void discard(request, refusal).then(resolve);
    };
    request.on('data', onData);
    request.on('error', (error) => {
      if (refused) return;
      held.give(taken());
      letGo();
      resolve({ ok: false, error: { status: 400, message: `request aborted: ${error.message}` } });
    });
    request.on('end', () => {
      if (!refused) resolve({ ok: true, value: whole ?? joined(parts, size, pool) });
    });
  });
}

/** A chunked body's pieces in one buffer of shared memory (as a declared one is read). */
function joined(parts: readonly Buffer[], size: number, pool: BodyPool): Buffer {
  const whole = pool.take(size);
  let at = 0;
  for (const part of parts) at += part.copy(whole, at);
  return whole;
}

const INFLATERS: Record<string, (input: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate: inflate,
  br: brotliDecompress,
};

/**
 * The JSON inside a compressed request body, for the rewrite only; the original bytes stay as they
 * are. Inflated off the main thread and never past `limit` bytes, which are taken from `held` first
 * (and what was not needed given back): a small bomb costs neither a stall of the other streams nor
 * gigabytes, and several at once no more than the budget. Null when it cannot be read (sent as it
 * came: fail open). On success the caller gives back the inflated length.
 */
export function decoded(
  raw: Buffer,
  encoding: string | undefined,
  limit: number,
  held: HeldBytes,
): Promise<Result<Buffer | null, { status: number; message: string }>> {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return Promise.resolve({ ok: true, value: raw });
  const inflater = INFLATERS[name];
  if (!inflater) return Promise.resolve({ ok: true, value: null });
  if (!held.take(limit)) return Promise.resolve({ ok: false, error: busy(held) });
  return new Promise((resolve) => {
    inflater(raw, { maxOutputLength: limit }, (error, result) => {
      held.give(error ? limit : limit - result.length);
      if (!error) resolve({ ok: true, value: result });
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        resolve({ ok: false, error: { status: 413, message: `request body over ${limit} bytes once decompressed (${name})` } });
      else resolve({ ok: true, value: null });
    });
  });
}
