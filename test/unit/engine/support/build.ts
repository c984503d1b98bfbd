// Small builders for engine tests: conversations in Anthropic format, turned into a Context with a
// fast character-based tokenizer (exact BPE counts are the tokenizer tests' business).
import { contextFromMessages, type MessagesInput } from '../../../../src/engine/fromMessages';
import type { AnthropicMessage, Context, MessageBlock } from '../../../../src/engine/model';
import { charEstimateTokenizer } from '../../../../src/engine/tokens/tokenizer';

export const user = (text: string): AnthropicMessage => ({ role: 'user', content: [{ type: 'text', text }] });
export const assistant = (...content: (string | MessageBlock)[]): AnthropicMessage => ({
  role: 'assistant',
  content: content.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part)),
});
export const call = (id: string, name: string, input: Record<string, unknown>): MessageBlock => ({ type: 'tool_use', id, name, input });
export const results = (...blocks: { id: string; output: string; isError?: boolean }[]): AnthropicMessage => ({
  role: 'user',
  content: blocks.map(({ id, output, isError }) => ({ type: 'tool_result', tool_use_id: id, content: output, ...(isError ? { is_error: true } : {}) })),
});

/** A read of `path` answered with `output`, as an assistant/user message pair. */
export function read(id: string, path: string, output: string, extra: Record<string, unknown> = {}): AnthropicMessage[] {
  return [assistant(call(id, 'Read', { file_path: path, ...extra })), results({ id, output })];
}

export function build(messages: AnthropicMessage[], options: Partial<MessagesInput> = {}): Context {
  return contextFromMessages({ system: 'You are a coding agent.', messages, windowTokens: 10_000, tokenizer: charEstimateTokenizer, ...options });
}

export const big = (label: string, chars: number): string => `${label}\n${'x'.repeat(chars)}`;
