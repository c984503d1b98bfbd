// Deterministic usage for the stand-in: a request is estimated at four characters a token of its
// input items and tools, and a prompt cache is simulated at item level: the longest run of leading
// items an earlier request already sent counts as cached. So fills grow across calls the way they
// do against the real API, and drop after a compaction replaces the history.
import { createHash } from 'node:crypto';
import type { ReplyItem, ResponsesRequest, Usage } from './types';

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function key(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export class UsageModel {
  private readonly seen: string[][] = [];

  price(request: ResponsesRequest, reply: readonly ReplyItem[]): Usage {
    const tools = estimateTokens(JSON.stringify(request.tools ?? []));
    const items = request.input.map((item) => ({ key: key(item), tokens: estimateTokens(JSON.stringify(item)) }));
    const keys = items.map((item) => item.key);
    const shared = this.longestSharedPrefix(keys);
    this.seen.push(keys);
    const sum = (from: number, to: number): number => items.slice(from, to).reduce((total, item) => total + item.tokens, 0);
    const input = tools + sum(0, items.length);
    const reasoning = reply.filter((item) => item.type === 'reasoning').reduce((total, item) => total + estimateTokens(JSON.stringify(item)), 0);
    return {
      input_tokens: input,
      // The tools lead every request: cached once anything was sent before.
      cached_tokens: shared === 0 ? 0 : tools + sum(0, shared),
      output_tokens: Math.max(1, estimateTokens(JSON.stringify(reply))),
      reasoning_tokens: reasoning,
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
