// Anthropic's Messages API (`POST /v1/messages`, Claude Code): the format the proxy first spoke. The
// scan is scan.ts's byte-level one, the engine reads the messages as they are, and usage comes from
// `message_start` (the input side) and `message_delta` (the output count).
import { jsonStringStub, scanMessagesBody } from '../scan';
import { agentSessionInBody } from '../session';
import { parseScannedBody } from '../wire';
import { count, record, type UsagePart, type WireFormat } from './format';
import { lastStringMemberInBody } from './scanning';

function usageOf(raw: unknown): UsagePart | null {
  const usage = record(raw);
  if (!usage) return null;
  const part: UsagePart = {};
  const fields: [keyof UsagePart, unknown][] = [
    ['inputTokens', usage.input_tokens],
    ['outputTokens', usage.output_tokens],
    ['cacheReadTokens', usage.cache_read_input_tokens],
    ['cacheCreationTokens', usage.cache_creation_input_tokens],
  ];
  for (const [key, value] of fields) {
    const number = count(value);
    if (number !== undefined) part[key] = number;
  }
  return part;
}

export const ANTHROPIC_MESSAGES: WireFormat = {
  name: 'anthropic-messages',
  matches: (method, path) => method === 'POST' && path === '/v1/messages',
  scan: (raw) => scanMessagesBody(raw),
  parse: (raw) => parseScannedBody(raw),
  encodeStub: jsonStringStub,
  agentSessionInBody,
  toolCallInBody: (raw) => lastStringMemberInBody(raw, 'tool_use_id'),
  usage: {
    markers: ['"message_start"', '"message_delta"'],
    fromEvent(event) {
      const value = record(event);
      if (value?.type === 'message_start') return usageOf(record(value.message)?.usage);
      if (value?.type === 'message_delta') return usageOf(value.usage);
      return null;
    },
    fromJson: (body) => usageOf(record(body)?.usage),
  },
  errorBody: (_status, type, message) => JSON.stringify({ type: 'error', error: { type, message } }),
  // The client's SDK raises an `error` event as an API error.
  streamError: (message) => `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`,
};
