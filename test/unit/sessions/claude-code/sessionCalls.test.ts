import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileCalls, readSessionCalls } from '../../../../src/sessions/claude-code/sessionCalls';
import { readSessionInfo } from '../../../../src/sessions/claude-code/listing';
import type { SessionCall } from '../../../../src/sessions/types';
import { tempDir } from '../../../support/tempDir';

const line = (id: string, output: number, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ type: 'assistant', uuid: `u-${id}-${output}`, requestId: `req-${id}`, timestamp: '2026-01-01T00:00:00Z', message: { id, model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [], usage: { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1_000, output_tokens: output, ...extra } } })}\n`;

describe('readFileCalls', () => {
  it('refuses a named pipe named like a transcript at once instead of waiting for a writer', async () => {
    const path = join(tempDir('cl-calls-fifo-'), 'session.jsonl');
    execFileSync('mkfifo', [path]);
    await assert.rejects(readFileCalls(path, tempDir('cl-calls-cache-')), /Not a regular file \(a named pipe\)/);
  });

  it('counts a response once, with its newest line, also when its lines arrive across two reads; the second read resumes', async () => {
    const dir = tempDir('cl-calls-');
    const cache = join(dir, 'cache');
    const path = join(dir, 's.jsonl');
    writeFileSync(path, line('msg_1', 5) + line('msg_1', 50) + line('msg_2', 7));
    assert.deepEqual(
      (await readFileCalls(path, cache)).calls.map((call) => call.usage.outputTokens),
      [50, 7],
    );
    // One by one in order for cache health, each response once, at its newest line's time (as its live call is).
    assert.equal((await readFileCalls(path, cache)).sequence.length, 2);
    appendFileSync(path, line('msg_2', 70) + line('msg_3', 3, { cache_creation: { ephemeral_1h_input_tokens: 40, ephemeral_5m_input_tokens: 60 } }));
    const { calls } = await readFileCalls(path, cache);
    assert.deepEqual(
      calls.map((call) => call.usage.outputTokens),
      [50, 70, 3],
    );
    assert.equal(calls[2]?.usage.cacheWrite1hTokens, 40);
    assert.equal(calls[0]?.model, 'claude-sonnet-4-5-20250929');
    // Many responses later, the older ones come back summed per model and day, counted as calls.
    appendFileSync(path, Array.from({ length: 100 }, (_, k) => line(`msg_n${k}`, 1)).join(''));
    const { calls: many } = await readFileCalls(path, cache);
    assert.equal(
      many.reduce((sum, call) => sum + (call.count ?? 1), 0),
      103,
    );
    assert.equal(
      many.reduce((sum, call) => sum + call.usage.outputTokens, 0),
      50 + 70 + 3 + 100,
    );
    assert.ok(many.length < 103);
    // Rewritten in place (not only appended): the index no longer fits, everything is read again.
    writeFileSync(path, line('msg_9', 1));
    assert.deepEqual(
      (await readFileCalls(path, cache)).calls.map((call) => call.usage.outputTokens),
      [1],
    );
  });
});

describe('readSessionCalls', () => {
  const PUBLIC = join(__dirname, '../../../fixtures/claude-code/public');
  const callsOf = async (folder: string, project: string, id: string) => {
    const session = await readSessionInfo(join(PUBLIC, folder, 'projects', project, `${id}.jsonl`));
    assert.ok(session.ok);
    const read = await readSessionCalls(session.value);
    assert.ok(read.ok);
    return read.value;
  };
  const summed = (calls: readonly SessionCall[]): number => calls.reduce((sum, call) => sum + (call.count ?? 1), 0);

  it('counts the subagents of a 2.1.x session, in <session>/subagents/', async () => {
    const read = await callsOf('session-share-2.1.15', '-Users-pete-tmp-claude-code-sessions', '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68');
    assert.deepEqual(
      read.subagents.map((agent) => agent.session.id),
      ['agent-a5bdbc1', 'agent-a9cad17', 'agent-aa5ef13', 'agent-ac27727', 'agent-afbbf75'],
    );
    for (const agent of read.subagents) {
      assert.equal(agent.session.parentSessionId, '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68');
      assert.ok(summed(agent.calls) > 0, agent.session.id);
    }
  });

  it('counts the sidechain files a 2.0.x session wrote beside it (isSidechain, its sessionId), and only its own', async () => {
    const read = await callsOf('codemie-2.0.64', '-tmp-private', '4c2ddfdc-b619-4525-8d03-1950fb1b0257');
    assert.deepEqual(
      read.subagents.map((agent) => [agent.session.id, agent.session.parentSessionId, agent.calls.map((call) => call.model)]),
      [
        ['agent-36541525', '4c2ddfdc-b619-4525-8d03-1950fb1b0257', ['claude-sonnet-4-5-20250929']],
        ['agent-50243ee8', '4c2ddfdc-b619-4525-8d03-1950fb1b0257', ['converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0']],
      ],
    );
    const warmup = await callsOf('claude-history-2.0.74', '-Users-user-project', 'a751b8dd-6b29-4eed-8cb9-64bc9a916a39');
    assert.deepEqual(
      warmup.subagents.map((agent) => agent.session.id),
      ['agent-a62673e'],
    );
    // The other session of the folder has none: the agent file names a751b8dd.
    assert.deepEqual((await callsOf('claude-history-2.0.74', '-Users-user-project', '0d3b22c1-ba90-4fd3-b8d2-056ffc626725')).subagents, []);
  });
});

describe('readSessionCalls: a subagent that starts from a copy of the parent history', () => {
  // Claude Code 2.1.111+ starts `agent-aside_question-*` and `agent-acompact-*` from the parent's
  // history: the parent's assistant lines again, same message id and request id, then the
  // subagent's own calls. Built here from the published spotter-2.1.39 session's own lines (no
  // published file of that shape is kept yet): 21 of the parent's calls copied, one of its own.
  const SPOTTER = join(__dirname, '../../../fixtures/claude-code/public/spotter-2.1.39/projects/-home-USER-projects-spotter-worktrees-spotter-4te');
  const ID = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
  const made: string[] = [];
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  const forkedSession = (name: string) => {
    const root = tempDir('cl-calls-aside-');
    made.push(root);
    const project = join(root, 'projects', 'p');
    mkdirSync(join(project, ID, 'subagents'), { recursive: true });
    const main = readFileSync(join(SPOTTER, `${ID}.jsonl`), 'utf8');
    writeFileSync(join(project, `${ID}.jsonl`), main);
    const parentCalls: string[] = [];
    for (const text of main.split('\n')) {
      if (text === '') continue;
      const record = JSON.parse(text) as { type?: string; message?: { id?: string; usage?: unknown } };
      if (record.type !== 'assistant' || record.message?.usage === undefined) continue;
      if (parentCalls.some((seen) => (JSON.parse(seen) as { message: { id: string } }).message.id === record.message?.id)) continue;
      parentCalls.push(text);
      if (parentCalls.length === 21) break;
    }
    const agentId = name.replace(/^agent-|\.jsonl$/g, '');
    const copied = parentCalls.map((text) => JSON.stringify({ ...JSON.parse(text), isSidechain: true, agentId }));
    const own = JSON.stringify({
      ...JSON.parse(parentCalls[0] as string),
      isSidechain: true,
      agentId,
      uuid: 'own-call',
      requestId: 'req_own',
      message: { ...(JSON.parse(parentCalls[0] as string) as { message: object }).message, id: 'msg_own' },
    });
    writeFileSync(join(project, ID, 'subagents', name), [...copied, own].join('\n') + '\n');
    return join(project, `${ID}.jsonl`);
  };

  for (const name of ['agent-aside_question-5ce17f65a1b2c3d4.jsonl', 'agent-acompact-3d346a6bf6f19caa.jsonl']) {
    it(`counts each call once per session (message id + request id): ${name.split('-').slice(0, 2).join('-')}`, async () => {
      const path = forkedSession(name);
      const session = await readSessionInfo(path);
      assert.ok(session.ok);
      const read = await readSessionCalls(session.value);
      assert.ok(read.ok);
      const alone = await readSessionCalls({ ...session.value, path: join(SPOTTER, `${ID}.jsonl`), projectDir: SPOTTER });
      assert.ok(alone.ok);
      const count = (calls: readonly SessionCall[]) => calls.reduce((sum, call) => sum + (call.count ?? 1), 0);
      const fork = read.value.subagents.find((agent) => agent.session.path.endsWith(name));
      // Before: 22 calls listed for the subagent, 21 of them the parent's, paid twice.
      assert.equal(count(fork?.calls ?? []), 1);
      assert.equal(count(read.value.calls), count(alone.value.calls));
      // Read again (from the index kept beside the history): the same.
      const again = await readSessionCalls(session.value);
      assert.ok(again.ok);
      assert.equal(count(again.value.subagents.find((agent) => agent.session.path.endsWith(name))?.calls ?? []), 1);
    });
  }
});
