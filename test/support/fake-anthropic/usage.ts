// Deterministic, realistic `usage` for the stand-in. Tokens are estimated as characters / 4 of the
// request's JSON, block by block, and a prompt cache is simulated: the part of a request up to its
// last `cache_control` breakpoint is cache *read* where an earlier request had the same blocks in
// front, else cache *creation*; what follows the breakpoint is plain input. So fills grow across
// calls the way they do against the real API, and drop after a compaction rewrites the prefix.
import { createHash } from 'node:crypto';
import type { MessagesRequest, ReplyBlock, RequestBlock, Usage } from './types';

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface Segment {
  /** Identity of the block for cache matching; `cache_control` moves between calls, so it is left out. */
  readonly key: string;
  readonly tokens: number;
  readonly breakpoint: boolean;
}

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function segment(value: unknown, breakpoint: boolean): Segment {
  const { cache_control: _ignored, ...rest } = (typeof value === 'object' && value !== null ? value : { value }) as Record<string, unknown>;
  return { key: hash(rest), tokens: estimateTokens(JSON.stringify(rest)), breakpoint };
}

function hasBreakpoint(block: unknown): boolean {
  return typeof block === 'object' && block !== null && 'cache_control' in block;
}

/** The request in cache order (tools, system, messages), one segment per block. */
function segments(request: MessagesRequest): Segment[] {
  const out: Segment[] = (request.tools ?? []).map((tool) => segment(tool, hasBreakpoint(tool)));
  const system = typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : (request.system ?? []);
  out.push(...system.map((block) => segment(block, hasBreakpoint(block))));
  for (const message of request.messages) {
    const blocks: readonly RequestBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    out.push(...blocks.map((block, index) => segment({ role: message.role, index, block }, hasBreakpoint(block))));
  }
  return out;
}

function outputTokens(content: readonly ReplyBlock[]): number {
  // A subagent's script rides on its Agent call but is never sent.
  return Math.max(1, estimateTokens(JSON.stringify(content, (key, value: unknown) => (key === 'subagent' ? undefined : value))));
}

/** Remembers every request it has priced, like a server-side prompt cache that never expires. */
export class UsageModel {
  private readonly seen: string[][] = [];

  /** Input-side usage plus output tokens for the reply about to be sent. */
  price(request: MessagesRequest, reply: readonly ReplyBlock[]): Usage {
    const parts = segments(request);
    const keys = parts.map((part) => part.key);
    const lastBreakpoint = parts.map((part) => part.breakpoint).lastIndexOf(true);
    const shared = Math.min(this.longestSharedPrefix(keys), lastBreakpoint + 1);
    this.seen.push(keys);

    const sum = (from: number, to: number) => parts.slice(from, to).reduce((total, part) => total + part.tokens, 0);
    const cacheRead = sum(0, shared);
    const cacheCreation = sum(shared, lastBreakpoint + 1);
    // The real API never reports zero uncached input for a non-empty request.
    const input = Math.max(1, sum(lastBreakpoint + 1, parts.length));
    return {
      input_tokens: input,
      cache_creation_input_tokens: cacheCreation,
      cache_read_input_tokens: cacheRead,
      output_tokens: outputTokens(reply),
    };
  }

  private longestSharedPrefix(keys: readonly string[]): number {
    let best = 0;
    for (const earlier of this.seen) {
      let length = 0;
      while (length < keys.length && length < earlier.length && keys[length] === earlier[length]) length++;
      best = Math.max(best, length);
    }
    return best;
  }
}

/** A count_tokens answer: the same estimate, without caching. */
export function countTokens(request: MessagesRequest): number {
  return Math.max(
    1,
    segments(request).reduce((total, part) => total + part.tokens, 0),
  );
}
