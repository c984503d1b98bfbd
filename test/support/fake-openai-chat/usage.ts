// Usage sized like the request, four characters a token, with a prompt cache simulated per message:
// the longest run of leading messages an earlier request already sent counts as cached. So OpenCode
// records `tokens.input` without the cached part and `cache.read` beside it, as against a real API.
import { createHash } from 'node:crypto';
import type { ChatRequest } from './server';

export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

const key = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

export class ChatUsageModel {
  private readonly seen: string[][] = [];

  price(request: ChatRequest, reply: string): ChatUsage {
    const tools = estimateTokens(JSON.stringify(request.tools ?? []));
    const sizes = request.messages.map((message) => estimateTokens(JSON.stringify(message)));
    const keys = request.messages.map(key);
    let shared = 0;
    for (const earlier of this.seen) {
      let length = 0;
      while (length < keys.length && length < earlier.length && keys[length] === earlier[length]) length++;
      shared = Math.max(shared, length);
    }
    this.seen.push(keys);
    const sum = (to: number): number => sizes.slice(0, to).reduce((total, size) => total + size, 0);
    const prompt = tools + sum(sizes.length);
    const output = Math.max(1, estimateTokens(reply));
    return {
      prompt_tokens: prompt,
      completion_tokens: output,
      total_tokens: prompt + output,
      prompt_tokens_details: { cached_tokens: shared === 0 ? 0 : tools + sum(shared) },
    };
  }
}
