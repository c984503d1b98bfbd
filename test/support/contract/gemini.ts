// Gemini CLI for the adapter contract: the chats the real CLI 0.61 recorded (each fixture's gemini/
// folder is a `.gemini` home) and the published legacy chats, the last call's prompt read straight
// from the records (the last line for an id wins), and a turn appended as the CLI writes one.
import { appendFileSync, readdirSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import type { ContractSubject, ScratchSession } from './subject';
import { copyInto, count, jsonLines, record } from './lines';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gemini');
const where = (home: string) => ({ homes: { gemini: [home] } });

function chatsUnder(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory()
        ? chatsUnder(path)
        : /^session-.*\.jsonl?$/.test(name) || (folder.includes('published') && name.endsWith('.json'))
          ? [path]
          : [];
    });
}

/** The `.gemini` home a chat lies in: the folder above `tmp/`, or the chat's own folder. */
const homeOf = (chat: string): string => (chat.includes('/tmp/') ? chat.slice(0, chat.lastIndexOf('/tmp/')) : dirname(chat));

export const geminiSubject: ContractSubject = {
  sessions: () => chatsUnder(FIXTURES).map((path) => ({ name: relative(FIXTURES, path), where: where(homeOf(path)), path })),
  // The exact prompt size is the newest gemini record's tokens.input (the API's promptTokenCount).
  lastFillTokens(path) {
    const lines = path.endsWith('.json') ? ((jsonLines(path)[0]?.messages as unknown[]) ?? []).map((message) => record(message) ?? {}) : jsonLines(path);
    const byId = new Map<unknown, Record<string, unknown>>();
    for (const line of lines) if (line.type === 'gemini' || line.type === 'user') byId.set(line.id, line);
    const counted = [...byId.values()].filter((message) => message.type === 'gemini' && count(record(message.tokens)?.input) > 0);
    const last = counted.at(-1);
    return last === undefined ? null : count(record(last.tokens)?.input);
  },
  scratch(dir) {
    const source = chatsUnder(join(FIXTURES, 'recorded', 'tools'))[0];
    if (source === undefined) throw new Error('no recorded tools chat under test/fixtures/gemini');
    const home = join(FIXTURES, 'recorded', 'tools', 'gemini');
    copyInto(dir, home, join(home, 'projects.json'));
    const path = copyInto(dir, home, source);
    return { where: where(dir), workspace: '/home/user/payments', path, file: path };
  },
  appendTurn(session: ScratchSession, fillTokens) {
    const at = new Date().toISOString();
    const user = { id: randomUUID(), timestamp: at, type: 'user', content: [{ text: 'One more thing: add a test for the retry.' }] };
    const answer = {
      id: randomUUID(),
      timestamp: at,
      type: 'gemini',
      content: 'Added.',
      thoughts: [],
      tokens: { input: fillTokens, output: 12, cached: fillTokens - 100, thoughts: 0, tool: 0, total: fillTokens + 12 },
      model: 'gemini-2.5-pro',
    };
    appendFileSync(session.file, `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`);
  },
};
