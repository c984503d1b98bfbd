// Where the hooks look for the person's rules and open loops in a Gemini CLI chat file: every
// message the file ever held, once each (by id, in order of first appearance), from its own lines
// and from the `$set.messages` snapshots a compression or a resume writes, so prompts a compression
// summarised away still count. The person's text parts only (not the session context the CLI sets
// up, nor the `<hook_context>` our own hook added), the model's text (open loops only) and the
// CLI's `<state_snapshot>` summaries.
import { open } from 'node:fs/promises';
import type { PinSource } from '../connection';
import { scanChat } from './reader';
import { asMessage, isSessionContext, isSummary, partsOf, setPatch, textOf, type MessageRecord } from './records';

export async function forEachGeminiPinSource(path: string, visit: (source: PinSource) => void): Promise<void> {
  // A missing or unreadable file throws: the hook records why and still prints the settings' pins.
  const handle = await open(path, 'r');
  const seen = new Set<string>();
  let order = 0;
  const take = (message: MessageRecord): void => {
    if (seen.has(message.id)) return;
    seen.add(message.id);
    const source = sourceOf(message, ++order);
    if (source !== null) visit(source);
  };
  try {
    await scanChat(handle, path, { keepPending: false }, ({ record }) => {
      const snapshot = setPatch(record)?.messages;
      if (Array.isArray(snapshot))
        for (const value of snapshot) {
          const message = asMessage(value);
          if (message !== null) take(message);
        }
      const message = asMessage(record);
      if (message !== null && (message.type === 'user' || message.type === 'gemini')) take(message);
    });
  } finally {
    await handle.close();
  }
}

function sourceOf(message: MessageRecord, line: number): PinSource | null {
  if (isSummary(message)) return { line, kind: 'summary', text: textOf(message.content) };
  if (message.type === 'gemini') {
    const text = textOf(message.content).trim();
    return text === '' ? null : { line, kind: 'agent', text };
  }
  if (message.type !== 'user') return null;
  const typed = partsOf(message.content)
    .flatMap((part) => (typeof part.text === 'string' && part.thought !== true && !isSessionContext(part.text) ? [part.text] : []))
    .join('\n')
    .trim();
  // Slash commands (`/compress`) and `?` help are the CLI's, not a prompt.
  return typed === '' || typed.startsWith('/') || typed.startsWith('?') ? null : { line, kind: 'typed', text: typed };
}
