// Hostile chats never crash or hang the Gemini readers: a torn last line, bytes that are not UTF-8,
// a line past the line cap, a named pipe or an empty file named like a chat, absurd nesting and
// counts, patches of the wrong shape. Each becomes a diagnostic, a refusal or is skipped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_LINE_BYTES } from '../../../../src/sessions/common/lines';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { geminiAdapter } from '../../../../src/sessions/gemini/adapter';
import { listGeminiSessions, readGeminiSessionInfo } from '../../../../src/sessions/gemini/listing';
import { readGeminiLiveContext } from '../../../../src/sessions/gemini/liveContext';
import { GEMINI_AGENT } from '../../../../src/sessions/gemini/records';
import type { SessionInfo } from '../../../../src/sessions/types';
import { call, chatPath, gemini, HEADER, lines, rewind, sessionContext, set, user } from './syntheticChat';

describe('Gemini readers on hostile chats', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-hostile-'));
  after(() => rmSync(temp, { recursive: true, force: true }));
  let count = 0;
  const chat = (content: string | Buffer, name?: string): string => {
    const path = chatPath(join(temp, `h${count++}`), name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
    return path;
  };

  it('a torn last line is a write in progress: noted, the rest read', async () => {
    const path = chat(`${lines([HEADER, user('u1', 'hi'), gemini('g1', 'hello', 1200)])}{"id":"g2","type":"gemini","content":"cut`);
    const live = await readGeminiLiveContext(path);
    assert.ok(live.ok);
    assert.equal(live.value.fill.usedTokens, 1200);
    assert.deepEqual(
      live.value.diagnostics.map((diagnostic) => diagnostic.code),
      ['truncated-line'],
    );
  });

  it('names a line that is not UTF-8 and keeps its content', async () => {
    // Latin-1 é (0xE9) on line 2: not UTF-8, valid JSON once replaced.
    const bytes = Buffer.from(lines([HEADER, user('u1', 'caf\u00e9'), gemini('g1', 'ok', 900)]).replace(/\u00e9/g, '\u0001'));
    bytes[bytes.indexOf(1)] = 0xe9;
    const live = await readGeminiLiveContext(chat(bytes));
    assert.ok(live.ok);
    assert.deepEqual(
      live.value.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
      [['invalid-utf8', 2]],
    );
    assert.equal(live.value.messages.length, 2);
  });

  it('skips a line past the line cap without holding it', async () => {
    const huge = JSON.stringify(user('u0', 'x'.repeat(MAX_LINE_BYTES + 10)));
    const path = chat(`${lines([HEADER])}${huge}\n${lines([user('u1', 'after'), gemini('g1', 'ok', 5000)])}`);
    const live = await readGeminiLiveContext(path);
    assert.ok(live.ok);
    assert.deepEqual(
      live.value.diagnostics.map((diagnostic) => diagnostic.code),
      ['oversized-line'],
    );
    assert.equal(live.value.fill.usedTokens, 5000);
    const info = await geminiAdapter.readSessionInfo(path);
    assert.ok(info.ok);
    // The picker reads strings cut short: the long prompt still titles the session, cut.
    assert.match(info.value.title, /^x{79}…$/);
  });

  it('refuses a named pipe named like a chat at once, and lists around it', async () => {
    const path = chatPath(join(temp, 'fifo'));
    mkdirSync(join(path, '..'), { recursive: true });
    execFileSync('mkfifo', [path]);
    const info = await geminiAdapter.readSessionInfo(path);
    assert.equal(info.ok ? 'read' : info.error.message, `Not a regular file (a named pipe): ${path}`);
    const live = await readGeminiLiveContext(path);
    assert.equal(live.ok, false);
    const listed = await listGeminiSessions({ geminiHomes: [join(temp, 'fifo')] });
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.sessions, []);
    assert.equal(listed.value.diagnostics.length, 1);
    const calls = await geminiAdapter.readSessionCalls(fakeInfo(path));
    assert.equal(calls.ok, false);
  });

  it('an empty file is an empty session, never a crash', async () => {
    const path = chat('');
    const live = await readGeminiLiveContext(path);
    assert.ok(live.ok);
    assert.deepEqual(live.value.messages, []);
    assert.equal(live.value.fill.usedTokens, 0);
    const listed = await listGeminiSessions({ geminiHomes: [join(path, '..', '..', '..', '..', '..')] });
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.sessions, [], 'nothing to resume: not listed');
  });

  it('absurd nesting in a call, absurd counts and patches of the wrong shape are read safely', async () => {
    // Written as text: JSON.stringify itself cannot write 50,000 levels.
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const deepCall = JSON.stringify(gemini('g1', '', 1000, { toolCalls: [call('c1', 'read_file', { deep: 'DEEP' }, 'ok')] })).replace('"DEEP"', deep);
    const path = chat(
      lines([HEADER, sessionContext(), user('u1', 'go')]) +
        `${deepCall}\n` +
        lines([
          gemini('g2', 'negative', 0, { tokens: { input: -5, output: 'x' } }),
          gemini('g3', 'huge', 0, { tokens: { input: 1e300 } }),
          set({ messages: 'not a list' }),
          { $rewindTo: 42 },
          { id: 7, type: 'user', content: 'numeric id' },
          user('u2', 'tail'),
        ]) +
        '[1,2]\n"text"\nnull\n',
    );
    const live = await readGeminiLiveContext(path);
    assert.ok(live.ok);
    assert.equal(live.value.fill.usedTokens, 1000);
    assert.deepEqual(
      live.value.diagnostics.map((diagnostic) => diagnostic.code),
      ['too-deep', 'not-an-object', 'not-an-object', 'not-an-object'],
    );
    assert.doesNotThrow(() => engineContextOf(live.value));
  });

  it('a rewind to an unknown id empties the history, as the CLI does', async () => {
    const live = await readGeminiLiveContext(chat(lines([HEADER, user('u1', 'a'), gemini('g1', 'b', 100), rewind('nope')])));
    assert.ok(live.ok);
    assert.deepEqual(live.value.messages, []);
  });

  it('a $set or header naming __proto__, constructor or prototype adds keys: it changes no prototype, no title, no kind', async () => {
    const header = { sessionId: HEADER.sessionId, projectHash: HEADER.projectHash, startTime: HEADER.startTime };
    for (const patch of [
      '{"__proto__":{"summary":"INJECTED","kind":"subagent"}}',
      '{"constructor":{"prototype":{"summary":"INJECTED"}},"prototype":{"kind":"subagent"}}',
    ]) {
      const hostileHeader = JSON.parse(`{${JSON.stringify(header).slice(1, -1)},"__proto__":{"kind":"subagent"}}`) as Record<string, unknown>;
      const path = chat(`${lines([hostileHeader, user('u1', 'the first prompt'), gemini('g1', 'b', 100)])}{"$set":${patch}}\n`);
      const read = await readGeminiSessionInfo(path);
      assert.ok(read.ok);
      const session = read.value;
      assert.equal(session?.title, 'the first prompt', patch);
      assert.equal(session?.isSidechain, false, patch);
      assert.equal(({} as Record<string, unknown>).summary, undefined);
    }
  });
});

function fakeInfo(path: string): SessionInfo {
  return {
    id: 'x',
    agent: GEMINI_AGENT,
    path,
    projectDir: join(path, '..'),
    cwd: null,
    title: 'x',
    model: null,
    lastActivityMs: 0,
    sizeBytes: 0,
    isSidechain: false,
  };
}
