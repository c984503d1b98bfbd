// The Responses API's streaming wire format, as far as the Codex CLI needs it: each output item
// once complete (`response.output_item.done`), then `response.completed` with the usage.
import type { ReplyItem, Usage } from './types';

export interface WireIds {
  readonly responseId: string;
  /** A fresh item id with a type prefix (`msg`, `fc`, `rs`, `ctc`). */
  readonly itemId: (prefix: string) => string;
  /** The call id of the n-th tool call of this reply: how later requests name its output. */
  readonly callId: (index: number) => string;
}

/** Output items as the API sends them. */
export function outputItems(items: readonly ReplyItem[], ids: WireIds): Record<string, unknown>[] {
  let calls = 0;
  return items.map((item) => {
    switch (item.type) {
      case 'message':
        return {
          type: 'message',
          id: ids.itemId('msg'),
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: item.text, annotations: [] }],
        };
      case 'reasoning':
        return {
          type: 'reasoning',
          id: ids.itemId('rs'),
          summary: [{ type: 'summary_text', text: item.summary }],
          ...(item.encrypted === undefined ? {} : { encrypted_content: item.encrypted }),
        };
      case 'function_call':
        return {
          type: 'function_call',
          id: ids.itemId('fc'),
          call_id: ids.callId(calls++),
          name: item.name,
          arguments: JSON.stringify(item.arguments),
          status: 'completed',
        };
      case 'custom_tool_call':
        return { type: 'custom_tool_call', id: ids.itemId('ctc'), call_id: ids.callId(calls++), name: item.name, input: item.input, status: 'completed' };
    }
  });
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

export function usageJson(usage: Usage): Record<string, unknown> {
  return {
    input_tokens: usage.input_tokens,
    input_tokens_details: { cached_tokens: usage.cached_tokens },
    output_tokens: usage.output_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
    total_tokens: usage.input_tokens + usage.output_tokens,
  };
}

export function sseEvents(output: readonly Record<string, unknown>[], usage: Usage, responseId: string): string[] {
  return [
    event('response.created', { response: { id: responseId, status: 'in_progress', output: [] } }),
    ...output.map((item, index) => event('response.output_item.done', { output_index: index, item })),
    event('response.completed', { response: { id: responseId, status: 'completed', output, usage: usageJson(usage) } }),
  ];
}
