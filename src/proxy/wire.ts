// The Anthropic Messages request as the live proxy reads and edits it: the shape we accept (any
// other is forwarded as it came), the messages as the engine reads them, and the session's sticky
// edits applied to the wire messages without copying the untouched ones.
import { markHarnessBlock, type AnthropicMessage, type MessageBlock } from '../engine';
import type { Result } from '../sessions/types';
import type { StickyEdit } from './session';

/** Newer Claude Code versions also send `system`-role messages (rendered reminders), some without content. */
export interface WireMessage {
  role: 'user' | 'assistant' | 'system';
  content?: string | MessageBlock[];
  [key: string]: unknown;
}

export interface RequestBody {
  model?: unknown;
  stream?: unknown;
  metadata?: { user_id?: unknown };
  system?: string | MessageBlock[];
  tools?: Record<string, unknown>[];
  messages: WireMessage[];
  [key: string]: unknown;
}

/**
 * The messages as the engine reads them: `system`-role ones travel with the user's side of the turn
 * and are marked as harness text (not something the person typed), as the session adapter does.
 */
export function engineMessages(messages: readonly WireMessage[]): AnthropicMessage[] {
  return messages.map((message) => {
    if (message.role !== 'system') return message as AnthropicMessage;
    const content = message.content ?? [];
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    return { role: 'user', content: blocks.map((block) => markHarnessBlock({ ...block })) };
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isBlockList = (value: unknown): boolean => Array.isArray(value) && value.every((block) => isObject(block) && typeof block.type === 'string');

/** The Messages shape we know how to edit; anything else is forwarded as it came. */
export function parseMessagesBody(raw: Buffer): Result<RequestBody, string> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, error: 'body is not JSON' };
  }
  if (!isObject(body) || !Array.isArray(body.messages)) return { ok: false, error: 'no messages array' };
  for (const message of body.messages) {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system')) return { ok: false, error: 'a message without a user, assistant or system role' };
    if (message.content === undefined && message.role === 'system') continue;
    if (typeof message.content !== 'string' && !isBlockList(message.content)) return { ok: false, error: 'a message content of unknown shape' };
  }
  if (body.system !== undefined && typeof body.system !== 'string' && !isBlockList(body.system)) return { ok: false, error: 'a system prompt of unknown shape' };
  if (body.tools !== undefined && !(Array.isArray(body.tools) && body.tools.every(isObject))) return { ok: false, error: 'tools of unknown shape' };
  if (body.metadata !== undefined && !isObject(body.metadata)) return { ok: false, error: 'metadata of unknown shape' };
  return { ok: true, value: body as RequestBody };
}

/** The session's edits applied to `messages`; untouched messages are shared, not copied. `saved` is in bytes of JSON. */
export function applyEdits<M extends { role: string; content?: string | MessageBlock[] }>(messages: readonly M[], edits: ReadonlyMap<string, StickyEdit>): { messages: M[]; applied: number; saved: number; used: StickyEdit[] } {
  let applied = 0;
  let saved = 0;
  const used: StickyEdit[] = [];
  if (edits.size === 0) return { messages: [...messages], applied, saved, used };
  const out = messages.map((message) => {
    if (message.role !== 'user' || !Array.isArray(message.content)) return message;
    let changed = false;
    const content = message.content.map((block) => {
      const edit = block.type === 'tool_result' ? edits.get(String(block.tool_use_id)) : undefined;
      if (!edit) return block;
      changed = true;
      applied += 1;
      saved += edit.bytesSaved;
      used.push(edit);
      return { ...block, content: edit.text };
    });
    return changed ? { ...message, content } : message;
  });
  return { messages: out, applied, saved, used };
}

