// The Gemini context is what the next call sends. On every published chat, cut after each call's
// reply and what was written after it (its tool results), the context we show must be what the
// next call's own count says it sent: its measured part (through the reply) never more than that
// count (a reply's thoughts are billed but never sent again), the whole close to it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { geminiAdapter } from '../../../../src/sessions/gemini/adapter';

const PUBLISHED = join(__dirname, '..', '..', '..', 'fixtures', 'gemini', 'published');

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : name.endsWith('.json') ? [path] : [];
  });
}

interface Message {
  type?: string;
  content?: unknown;
  toolCalls?: unknown[];
  tokens?: { input?: number; output?: number; thoughts?: number };
}

const recordsWhatItSent = (reply: Message): boolean => (reply.toolCalls?.length ?? 0) > 0 || JSON.stringify(reply.content ?? '').length > 2;

describe('Gemini: the context after a call is what the next call sends', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-next-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  for (const path of filesUnder(PUBLISHED)) {
    it(basename(path), async () => {
      const chat = JSON.parse(readFileSync(path, 'utf8')) as { messages: Message[] };
      const counted = chat.messages.flatMap((message, index) => (message.type === 'gemini' && (message.tokens?.input ?? 0) > 0 ? [index] : []));
      let compared = 0;
      let thoughtsAfter = 0;
      for (let k = 0; k + 1 < counted.length; k++) {
        const next = chat.messages[counted[k + 1] as number] as Message;
        const cut = join(temp, `${compared}-${basename(path)}`);
        writeFileSync(cut, JSON.stringify({ ...chat, messages: chat.messages.slice(0, counted[k + 1]) }));
        const info = await geminiAdapter.readSessionInfo(cut);
        assert.ok(info.ok);
        const live = await geminiAdapter.readLiveContext(info.value);
        assert.ok(live.ok);
        const context = engineContextOf(live.value);
        const sent = next.tokens?.input as number;
        const label = `${basename(path)}, before call ${k + 2}: we say ${context.usedTokens} (measured ${context.measuredTokens ?? 0}), it sent ${sent}`;
        assert.ok((context.measuredTokens ?? context.usedTokens) <= sent, label);
        // The rest is our four-characters-a-token estimate of the results written since (a subagent's
        // chat records replies without their calls or results: nothing to estimate there).
        if (recordsWhatItSent(chat.messages[counted[k] as number] as Message))
          assert.ok(Math.abs(context.usedTokens - sent) <= Math.max(300, 0.1 * sent), label);
        thoughtsAfter += (chat.messages[counted[k] as number] as Message).tokens?.thoughts ?? 0;
        compared++;
      }
      assert.ok(compared > 0 && thoughtsAfter > 0, 'the chat has calls with thoughts to compare');
    });
  }
});
