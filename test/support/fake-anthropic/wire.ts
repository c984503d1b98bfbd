// Turning a scripted reply into what the Messages API sends: a JSON message, or the SSE event
// sequence of a streamed one (message_start, content_block_start/delta/stop per block,
// message_delta with the final usage and stop_reason, message_stop).
import type { Reply, ReplyBlock, Usage } from './types';

export interface WireIds {
  readonly messageId: string;
  /** Called once per tool_use block that has no id of its own. */
  readonly toolUseId: () => string;
}

type WireBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function toWire(block: ReplyBlock, ids: WireIds): WireBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      // Clients send thinking back verbatim with its signature; any opaque string does here.
      return { type: 'thinking', thinking: block.thinking, signature: Buffer.from(block.thinking.slice(0, 48)).toString('base64') };
    case 'tool_use':
      return { type: 'tool_use', id: block.id ?? ids.toolUseId(), name: block.name, input: block.input };
  }
}

function stopReason(reply: Reply): string {
  return reply.stopReason ?? (reply.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

export function messageJson(reply: Reply, model: string, usage: Usage, ids: WireIds): Record<string, unknown> {
  return {
    id: ids.messageId,
    type: 'message',
    role: 'assistant',
    model,
    content: reply.content.map((block) => toWire(block, ids)),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage,
  };
}

/** Splits text into a few deltas, as the real stream does, so clients exercise their accumulation. */
function chunks(text: string, size = 64): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.length > 0 ? out : [''];
}

function blockEvents(block: WireBlock, index: number): Array<Record<string, unknown>> {
  const delta = (value: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: value });
  switch (block.type) {
    case 'text':
      return [
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        ...chunks(block.text).map((text) => delta({ type: 'text_delta', text })),
      ];
    case 'thinking':
      return [
        { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
        ...chunks(block.thinking).map((thinking) => delta({ type: 'thinking_delta', thinking })),
        delta({ type: 'signature_delta', signature: block.signature }),
      ];
    case 'tool_use':
      return [
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } },
        ...chunks(JSON.stringify(block.input), 40).map((partial_json) => delta({ type: 'input_json_delta', partial_json })),
      ];
  }
}

/** The SSE events of a streamed reply, each as `event: <type>\ndata: <json>\n\n`. */
export function sseEvents(reply: Reply, model: string, usage: Usage, ids: WireIds): string[] {
  const blocks = reply.content.map((block) => toWire(block, ids));
  const events: Array<Record<string, unknown>> = [
    {
      type: 'message_start',
      message: {
        id: ids.messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Like the real API: input-side usage up front, output_tokens final only at message_delta.
        usage: { ...usage, output_tokens: 1 },
      },
    },
    ...blocks.flatMap((block, index) => [...blockEvents(block, index), { type: 'content_block_stop', index }]),
    { type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage },
    { type: 'message_stop' },
  ];
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}
