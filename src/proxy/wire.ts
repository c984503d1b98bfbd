// The Anthropic Messages request as the live proxy's engine reads it (scan.ts checks its shape and
// edits the bytes that go upstream): the messages as the engine reads them, and the session's sticky
// edits applied to them without copying the untouched ones.
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

/** The whole request, once scanMessagesBody has accepted its shape: only a batch or a new drop needs it. */
export function parseScannedBody(raw: Buffer): Result<RequestBody, string> {
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) as RequestBody };
  } catch {
    return { ok: false, error: 'unknown shape: body is not JSON' };
  }
}

/** The session's edits applied to `messages` (what a batch plans on); untouched messages are shared, not copied. */
export function applyEdits<M extends { role: string; content?: string | MessageBlock[] }>(messages: readonly M[], edits: ReadonlyMap<string, StickyEdit>): M[] {
  if (edits.size === 0) return [...messages];
  return messages.map((message) => {
    if (message.role !== 'user' || !Array.isArray(message.content)) return message;
    let changed = false;
    const content = message.content.map((block) => {
      const edit = block.type === 'tool_result' ? edits.get(String(block.tool_use_id)) : undefined;
      if (!edit) return block;
      changed = true;
      return { ...block, content: edit.text };
    });
    return changed ? { ...message, content } : message;
  });
}
