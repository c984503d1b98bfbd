// The MCP server's stdio, read with a bound on each line. The SDK's own stdio transport keeps an
// unfinished line whole and closes itself when one passes 10 MiB, and answers nothing to a line it
// cannot parse: one oversized or garbage message left the server deaf for the rest of the session.
// Here a line over the cap is skipped up to its newline and answered with a JSON-RPC error (under
// the request's own id when its head tells it, requestId.ts), as is one that is not JSON or not
// JSON-RPC; the server keeps serving the next line.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ID_SCAN_BYTES, requestIdFromHead } from './requestId';

/** Our tools take a reason, a focus and a ref (a few KB); the protocol's own messages are small. */
export const MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;

/** JSON-RPC 2.0 error codes: the line was not JSON, or not a request we can read. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pieces: Buffer[] = [];
  private held = 0;
  /** Inside a line already over the cap: everything up to its newline is thrown away. */
  private skipping = false;
  private readonly onData = (chunk: Buffer): void => this.read(chunk);
  private readonly onEnd = (): void => void this.close();
  /** The client closed our stdout (it went away): the session is over, not a crash with a stack. */
  private readonly onOutputError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') void this.close();
    else this.onerror?.(error);
  };

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.output.on('error', this.onOutputError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  /** One message a line; resolves once the output took it (after a drain when its buffer was full). */
  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    // Left listening: a late EPIPE of a write already made must not become an unhandled error.
    this.pieces = [];
    this.held = 0;
    this.onclose?.();
    return Promise.resolve();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.skipping) {
        this.held += end - start;
        if (this.held > this.maxLineBytes) {
          const head = headOf([...this.pieces, chunk.subarray(start, end)], ID_SCAN_BYTES);
          this.pieces = [];
          this.skipping = true;
          void this.refuse(INVALID_REQUEST, `message over ${this.maxLineBytes} bytes: skipped`, requestIdFromHead(head));
          // An unfinished line is copied: the stream may reuse its chunk.
        } else this.pieces.push(newline === -1 ? Buffer.from(chunk.subarray(start, end)) : chunk.subarray(start, end));
      }
      if (newline === -1) break;
      if (!this.skipping) this.line(Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, ''));
      this.pieces = [];
      this.held = 0;
      this.skipping = false;
      start = newline + 1;
    }
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      void this.refuse(PARSE_ERROR, 'not JSON');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      const id = (value as { id?: unknown } | null)?.id;
      void this.refuse(INVALID_REQUEST, 'not a JSON-RPC 2.0 message', typeof id === 'string' || typeof id === 'number' ? id : null);
      return;
    }
    this.onmessage?.(message.data);
  }

  /** A JSON-RPC error reply, written directly: the SDK only answers messages it could read. */
  private refuse(code: number, message: string, id: string | number | null = null): Promise<void> {
    this.onerror?.(new Error(message));
    return this.write({ jsonrpc: '2.0', id, error: { code, message: `Context Lens MCP: ${message}` } });
  }
}

/** The first `bytes` bytes of a line held in pieces, as text (a character cut at the end is the scan's to stop at). */
function headOf(pieces: readonly Buffer[], bytes: number): string {
  const taken: Buffer[] = [];
  let length = 0;
  for (const piece of pieces) {
    if (length >= bytes) break;
    taken.push(piece.subarray(0, bytes - length));
    length += Math.min(piece.length, bytes - length);
  }
  return Buffer.concat(taken).toString('utf8');
}
