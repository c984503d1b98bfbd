// Exact usage from a response while it streams past: the request's wire format says which SSE events
// carry it and how to read them (formats/); a JSON response has it in its body. The tap reads a copy
// of the bytes and never holds the stream back; what it keeps is bounded (one SSE line, or the first
// megabyte of a JSON body).
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import type { ProxyUsage } from './events';
import { ANTHROPIC_MESSAGES } from './formats/anthropic';
import type { UsagePart, UsageReader } from './formats/format';

const MAX_JSON_BYTES = 1024 * 1024;
const MAX_LINE_CHARS = 256 * 1024;

export class UsageTap {
  private usage: Partial<ProxyUsage> = {};
  private line = '';
  private json: Buffer[] = [];
  private jsonBytes = 0;
  private readonly decoder: Gunzip | undefined;
  private readonly sse: boolean;
  private broken = false;

  constructor(
    contentType: string | undefined,
    contentEncoding: string | undefined,
    private readonly reader: UsageReader = ANTHROPIC_MESSAGES.usage,
  ) {
    this.sse = (contentType ?? '').includes('text/event-stream');
    const encoding = (contentEncoding ?? '').trim().toLowerCase();
    const decoder = encoding === 'gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
    this.decoder = decoder as Gunzip | undefined;
    this.decoder?.on('data', (chunk: Buffer) => this.read(chunk));
    // A corrupt or unknown encoding only costs the usage figures.
    this.decoder?.on('error', () => (this.broken = true));
    if (encoding !== '' && encoding !== 'identity' && !decoder) this.broken = true;
  }

  push(chunk: Buffer): void {
    if (this.broken) return;
    if (this.decoder) this.decoder.write(chunk);
    else this.read(chunk);
  }

  /** The usage seen, once the response ended; null when it carried none we could read. */
  async finish(): Promise<ProxyUsage | null> {
    if (this.decoder && !this.broken) await new Promise<void>((resolve) => this.decoder?.end(resolve));
    if (this.sse) this.line.split('\n').forEach((line) => this.sseLine(line));
    else if (this.json.length > 0) this.fromJson(Buffer.concat(this.json).toString('utf8'));
    const { inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens } = this.usage;
    if (inputTokens === undefined) return null;
    return { inputTokens, outputTokens: outputTokens ?? 0, cacheReadTokens: cacheReadTokens ?? 0, cacheCreationTokens: cacheCreationTokens ?? 0 };
  }

  private read(chunk: Buffer): void {
    if (!this.sse) {
      if (this.jsonBytes + chunk.length > MAX_JSON_BYTES) return;
      this.json.push(chunk);
      this.jsonBytes += chunk.length;
      return;
    }
    const text = this.line + chunk.toString('utf8');
    const lines = text.split('\n');
    this.line = lines.pop() ?? '';
    if (this.line.length > MAX_LINE_CHARS) this.line = '';
    for (const line of lines) this.sseLine(line);
  }

  private sseLine(line: string): void {
    // Only events that may carry usage are parsed; content deltas are skipped by a substring test.
    if (!line.startsWith('data:') || !this.reader.markers.some((marker) => line.includes(marker))) return;
    try {
      this.merge(this.reader.fromEvent(JSON.parse(line.slice(5))));
    } catch {
      // A torn or foreign line: no figures from it.
    }
  }

  private fromJson(text: string): void {
    try {
      this.merge(this.reader.fromJson(JSON.parse(text)));
    } catch {
      // Not JSON (an HTML error page): no usage.
    }
  }

  private merge(part: UsagePart | null): void {
    if (part) Object.assign(this.usage, part);
  }
}
