// Where the hooks look for the person's rules and open loops in a Codex rollout, record by record
// (nothing kept but the texts): what the person typed (without the context Codex and its IDE wrap
// around it), the agent's own messages (open loops only) and the summaries of earlier compactions.
// The whole file is read, so prompts an earlier compaction summarised away still count; the items a
// `compacted` record replays are not counted twice.
import { open } from 'node:fs/promises';
import type { PinSource } from '../connection';
import { scanRollout } from './reader';
import { messageText, obj, payloadOf, responseItemOf, str } from './records';
import { typedPrompt } from './typedPrompt';

export async function forEachCodexPinSource(path: string, visit: (source: PinSource) => void): Promise<void> {
  // A missing or unreadable file throws: the hook records why and still prints the settings' pins.
  const handle = await open(path, 'r');
  try {
    await scanRollout(handle, path, {}, ({ record, line }) => {
      if (record.type === 'compacted') {
        const summary = str(payloadOf(record)?.message);
        if (summary !== null && summary.trim() !== '') visit({ line, kind: 'summary', text: summary });
        return;
      }
      const item = responseItemOf(record);
      if (item?.type !== 'message') return;
      if (item.role === 'assistant') {
        const text = messageText(item);
        if (text !== '') visit({ line, kind: 'agent', text });
        return;
      }
      if (item.role !== 'user') return;
      const parts = Array.isArray(item.content)
        ? item.content.flatMap((part) => (typeof obj(part)?.text === 'string' ? [String(obj(part)?.text)] : []))
        : [messageText(item)];
      const typed = typedPrompt(parts);
      if (typed !== '') visit({ line, kind: 'typed', text: typed });
    });
  } finally {
    await handle.close();
  }
}
