// The Gemini adapter over every fixture: the chats the real Gemini CLI 0.61.0 wrote
// (test/fixtures/gemini/recorded, JSON lines) and chats people published (…/published, the legacy
// whole-file JSON). Each is listed, read, sized exactly and handed to the engine; the compression,
// the resume stubs, the settings' compression threshold and forks are checked on the recordings.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SUMMARY_PREAMBLE } from '../../../../src/sessions/common/forkTexts';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { geminiAdapter } from '../../../../src/sessions/gemini/adapter';
import { listGeminiSessions, readGeminiSession } from '../../../../src/sessions/gemini/listing';
import { GEMINI_AGENT } from '../../../../src/sessions/gemini/records';
import type { LiveContext, SessionInfo } from '../../../../src/sessions/types';
import { listForks } from '../../../../src/sessions/handle/defaults';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'gemini');
const RECORDED = join(FIXTURES, 'recorded');
const PUBLISHED = join(FIXTURES, 'published');

function filesUnder(folder: string, pattern: RegExp): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

const recordedChats = filesUnder(RECORDED, /^session-.*\.jsonl$/);
const publishedChats = filesUnder(PUBLISHED, /\.json$/);

/** The design's rule, read straight from the file: the last gemini record with a prompt count. */
function lastGeminiInput(path: string): number | null {
  const text = readFileSync(path, 'utf8');
  const messages: Record<string, unknown>[] = path.endsWith('.json')
    ? JSON.parse(text).messages
    : text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line));
  const counted = messages.filter((message) => message.type === 'gemini' && ((message.tokens as { input?: number } | undefined)?.input ?? 0) > 0);
  return (counted.at(-1)?.tokens as { input: number } | undefined)?.input ?? null;
}

/** Distinct gemini ids with counts anywhere in the file (snapshots included). */
/** The compression threshold of the recording's settings.json (compress-audit sets a low one), else the CLI's default 0.5. */
function thresholdOf(path: string): number {
  const recorded = /^(.*\/recorded\/[^/]+\/gemini)\//.exec(path)?.[1];
  if (recorded === undefined) return 0.5;
  const settings = JSON.parse(readFileSync(join(recorded, 'settings.json'), 'utf8')) as { model?: { compressionThreshold?: number } };
  return settings.model?.compressionThreshold ?? 0.5;
}

function countedIds(path: string): number {
  const ids = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (record.type === 'gemini' && typeof record.id === 'string' && ((record.tokens as { input?: number } | null)?.input ?? 0) > 0) ids.add(record.id);
    Object.values(record).forEach(visit);
  };
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.json')) visit(JSON.parse(text));
  else for (const line of text.split('\n')) if (line.trim() !== '') visit(JSON.parse(line));
  return ids.size;
}

function assertPaired(live: LiveContext): void {
  const lastAssistant = live.messages.findLastIndex((message) => message.role === 'assistant');
  live.messages.forEach((message, index) => {
    for (const block of message.content.filter((candidate) => candidate.type === 'tool_use')) {
      const next = live.messages[index + 1];
      if (index === lastAssistant && next === undefined) continue;
      assert.ok(
        next?.content.some((candidate) => candidate.type === 'tool_result' && candidate.tool_use_id === block.id),
        `call ${String(block.id)} has its result`,
      );
    }
  });
}

async function read(path: string): Promise<{ info: SessionInfo; live: LiveContext }> {
  const info = await geminiAdapter.readSessionInfo(path);
  assert.ok(info.ok, info.ok ? '' : info.error.message);
  const live = await geminiAdapter.readLiveContext(info.value);
  assert.ok(live.ok, live.ok ? '' : live.error.message);
  return { info: info.value, live: live.value };
}

describe('Gemini adapter on every fixture', () => {
  it('finds the fixtures', () => {
    assert.equal(recordedChats.length, 7);
    assert.equal(publishedChats.length, 6);
  });

  for (const path of [...recordedChats, ...publishedChats]) {
    const name = path.slice(FIXTURES.length + 1);
    it(`${name}: owned, read, exact fill, paired calls, usage per call, session calls`, async () => {
      assert.equal(await geminiAdapter.owns(path), true);
      const { info, live } = await read(path);
      assert.equal(info.agent, GEMINI_AGENT);
      assert.deepEqual(
        live.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info'),
        [],
      );
      const expected = lastGeminiInput(path);
      const stub = !(await readGeminiSession(path)).ok || !(await readGeminiSession(path).then((r) => r.ok && r.value.resumable));
      if (expected === null || stub) {
        assert.equal(live.fill.source, 'estimate');
      } else {
        assert.equal(live.fill.source, 'usage');
        assert.equal(live.fill.usedTokens, expected);
      }
      assert.ok(live.fill.windowTokens > 0 && live.fill.agentAutoCompactTokens === Math.floor(live.fill.windowTokens * thresholdOf(path)));
      assertPaired(live);
      const context = engineContextOf(live);
      assert.ok(context.items.length > 0);
      const usage = geminiAdapter.usage(path);
      await usage.update(live.startOffset ?? 0);
      // One timeline point per measured call, keyed by the live entries' refs, the call's whole prompt.
      const points = live.entries.flatMap((entry) => entry.uuids.flatMap((ref) => usage.get(ref)?.usedTokens ?? []));
      const prompts = live.calls.map((call) => call.usage.inputTokens + call.usage.cacheReadInputTokens);
      assert.deepEqual(points.sort(), prompts.sort());
      const calls = await geminiAdapter.readSessionCalls(info);
      assert.ok(calls.ok);
      assert.equal(calls.value.calls.length, countedIds(path));
    });
  }

  it('claims no Claude Code transcript and no Codex rollout', async () => {
    const others = [...filesUnder(join(FIXTURES, '..', 'claude-code'), /\.jsonl$/), ...filesUnder(join(FIXTURES, '..', 'codex'), /\.jsonl$/)];
    assert.ok(others.length > 0);
    for (const path of others) assert.equal(await geminiAdapter.owns(path), false, path);
  });

  it('published: titles, models and cached counts of the legacy shape', async () => {
    const { info, live } = await read(join(PUBLISHED, 'aim', 'control_pro.json'));
    assert.equal(info.title, 'hello');
    assert.equal(info.model, 'gemini-3.1-pro-preview');
    assert.deepEqual(live.fill.usage, { inputTokens: 45026 - 44587, cacheCreationInputTokens: 0, cacheReadInputTokens: 44587, outputTokens: 45 + 611 });
    assert.equal(live.calls.length, 39);
    const subagent = await read(join(PUBLISHED, 'aim', 'session-2026-03-18T04-58-daa0ceb2.json'));
    assert.equal(subagent.info.isSidechain, true);
  });

  it('recorded compress: the <state_snapshot> rewrite is one compaction and only what follows it is live', async () => {
    const [path] = filesUnder(join(RECORDED, 'compress'), /^session-.*\.jsonl$/);
    const { live } = await read(path as string);
    assert.equal(live.compactions.length, 1);
    const [event] = live.compactions;
    assert.equal(event?.by, 'agent');
    assert.equal(event?.preTokens, 900000);
    assert.equal(event?.postTokens, 11860);
    assert.match(event?.summary ?? '', /^<state_snapshot>/);
    const texts = live.messages.flatMap((message) => message.content.map((block) => String(block.text ?? block.content ?? '')));
    assert.ok(!texts.some((text) => text.includes('Read src/stock.js and tell me')), 'the compressed prompt is gone');
    assert.ok(texts.some((text) => text.startsWith('Next: make reserve() refuse')));
    assert.ok(live.entries.some((entry) => entry.kind === 'compact-summary'));
    // Only the call made after the compression measured the live history.
    assert.equal(live.calls.length, 1);
    assert.equal(live.fill.usedTokens, 11860);
  });

  it('recorded resume: the stub sharing the short id is not listed, the resumed chat is, for its workspace', async () => {
    const home = join(RECORDED, 'resume', 'gemini');
    const listed = await listGeminiSessions({ geminiHomes: [home], workspacePath: '/home/user/cli-tool' });
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.sessions.map((session) => session.path.split('/').at(-1)),
      ['session-2026-11-25T22-22-a3d3c3e6.jsonl'],
    );
    assert.equal(listed.value.sessions[0]?.cwd, '/home/user/cli-tool');
    assert.match(listed.value.sessions[0]?.title ?? '', /^Standing rule: no new dependencies\./);
    const withStubs = await listGeminiSessions({ geminiHomes: [home], includeStubs: true });
    assert.ok(withStubs.ok);
    assert.equal(withStubs.value.sessions.length, 3);
    assert.equal(new Set(withStubs.value.sessions.map((session) => session.id)).size, 1, 'the stubs share the session id');
    const elsewhere = await listGeminiSessions({ geminiHomes: [home], workspacePath: '/home/user/other' });
    assert.ok(elsewhere.ok);
    assert.deepEqual(elsewhere.value.sessions, []);
  });

  describe('on a copy', () => {
    const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-fixture-'));
    after(() => rmSync(temp, { recursive: true, force: true }));

    it('the compression point follows model.compressionThreshold (user settings, with comments; the workspace wins)', async () => {
      const home = join(temp, 'threshold', '.gemini');
      cpSync(join(RECORDED, 'chat', 'gemini'), home, { recursive: true });
      writeFileSync(join(home, 'settings.json'), '{\n  // ours\n  "model": { "compressionThreshold": 0.7 } /* trailing */\n}\n');
      const listed = await geminiAdapter.listSessions({ homes: { [GEMINI_AGENT]: [join(temp, 'threshold')] } } as never);
      assert.ok(listed.ok);
      const [session] = listed.value;
      assert.ok(session);
      const live = await geminiAdapter.readLiveContext(session);
      assert.ok(live.ok);
      assert.equal(live.value.fill.agentAutoCompactTokens, Math.floor(0.7 * 1_048_576));
      const workspace = join(temp, 'workspace');
      cpSync(join(RECORDED, 'chat', 'gemini', 'settings.json'), join(workspace, '.gemini', 'settings.json'));
      writeFileSync(join(workspace, '.gemini', 'settings.json'), '{"model":{"compressionThreshold":0.25}}');
      const there = await geminiAdapter.readLiveContext({ ...session, cwd: workspace });
      assert.ok(there.ok);
      assert.equal(there.value.fill.agentAutoCompactTokens, Math.floor(0.25 * 1_048_576));
    });

    it('lists a fork by the mark on its header, as a fork of its source', async () => {
      const home = join(temp, 'forks', '.gemini');
      cpSync(join(RECORDED, 'chat', 'gemini'), home, { recursive: true });
      const [source] = filesUnder(home, /^session-.*\.jsonl$/);
      assert.ok(source);
      const info = await geminiAdapter.readSessionInfo(source);
      assert.ok(info.ok);
      const lines = readFileSync(source, 'utf8').split('\n');
      const header = {
        ...JSON.parse(lines[0] as string),
        sessionId: '99999999-aaaa-4bbb-8ccc-dddddddddddd',
        contextLens: { forkOf: { sessionId: info.value.id, title: info.value.title } },
      };
      writeFileSync(join(source, '..', 'session-2026-11-25T23-00-99999999.jsonl'), [JSON.stringify(header), ...lines.slice(1)].join('\n'));
      const forks = await listForks(geminiAdapter, info.value);
      assert.deepEqual(
        forks.map((fork) => fork.id),
        ['99999999-aaaa-4bbb-8ccc-dddddddddddd'],
      );
      assert.deepEqual(forks[0]?.forkOf, { sessionId: info.value.id, title: info.value.title });
    });

    it('reads a fork the way the fork writer writes it: our summary is a compaction by Context Lens, with the counts of its mark', async () => {
      const home = join(temp, 'forkread', '.gemini');
      cpSync(join(RECORDED, 'tools', 'gemini'), home, { recursive: true });
      const [source] = filesUnder(home, /^session-.*\.jsonl$/);
      assert.ok(source);
      const records = readFileSync(source, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
      const last = records.filter((record) => record.type === 'gemini').at(-1);
      const mark = {
        forkOf: { sessionId: records[0].sessionId, title: 'fees' },
        summary: 'Fixed the rounding.',
        focus: 'tests',
        preTokens: 12173,
        postTokens: 900,
      };
      const fork = [
        { ...records[0], sessionId: '77777777-aaaa-4bbb-8ccc-dddddddddddd', contextLens: mark },
        { id: 'summary-1', timestamp: '2026-11-25T23:00:00.000Z', type: 'user', content: [{ text: `${SUMMARY_PREAMBLE}\n\nFixed the rounding.` }] },
        { ...last, tokens: undefined },
      ];
      const path = join(source, '..', 'session-2026-11-25T23-00-77777777.jsonl');
      writeFileSync(path, fork.map((record) => JSON.stringify(record)).join('\n') + '\n');
      const { info, live } = await read(path);
      assert.deepEqual(info.forkOf, { sessionId: records[0].sessionId, title: 'fees' });
      assert.deepEqual(
        live.compactions.map((event) => [event.by, event.preTokens, event.postTokens, event.focus, event.summary]),
        [['context-lens', 12173, 900, 'tests', 'Fixed the rounding.']],
      );
      assert.equal(live.entries[0]?.kind, 'compact-summary');
      assert.equal(live.fill.source, 'estimate');
    });
  });
});
