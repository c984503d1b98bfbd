// A session id, or a unique start of one (as git takes a short hash), for every agent: Claude Code's
// uuids, OpenCode's `ses_…` (alone or as `<database>#<id>`), Gemini CLI's short ids.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findSessionById } from '../../../src/cli/sessionId';
import { CliError } from '../../../src/cli/errors';
import { AGENTS } from '../../../src/sessions/agents';
import type { AgentAdapter } from '../../../src/sessions/port';
import type { SessionInfo } from '../../../src/sessions/types';
import { copyScenario, run } from './support';
import { tempDir } from '../../support/tempDir';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** An agent (the real one's name and home) that lists exactly these ids. */
function listing(base: AgentAdapter, ids: readonly string[]): AgentAdapter {
  const session = (id: string): SessionInfo => ({
    id,
    agent: base.id,
    path: `/sessions/${base.id}/${id}`,
    projectDir: '/sessions',
    cwd: null,
    title: `title of ${id}`,
    model: null,
    lastActivityMs: 0,
    sizeBytes: 0,
    isSidechain: false,
  });
  return { ...base, listSessions: () => Promise.resolve({ ok: true, value: ids.map(session) }) };
}

const [first, second] = AGENTS as [AgentAdapter, AgentAdapter];
const where = { homes: {} };
const failure = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CliError);
    return error.message;
  }
  assert.fail('resolved');
};

describe('session ids and their prefixes', () => {
  it('takes an exact id, a unique prefix, and an exact id over the longer ids it starts', async () => {
    const adapters = [listing(first, ['abc123', 'abd999']), listing(second, ['abc', 'zzz'])];
    assert.equal((await findSessionById('abd', adapters, where)).path, `/sessions/${first.id}/abd999`);
    assert.equal((await findSessionById('zz', adapters, where)).adapter.id, second.id);
    // `abc` is an id of its own (the second agent's) and the start of the first's `abc123`.
    assert.equal((await findSessionById('abc', adapters, where)).path, `/sessions/${second.id}/abc`);
  });

  it('lists the candidates of an ambiguous prefix, across agents, and says unknown for none', async () => {
    const adapters = [listing(first, ['ab1', 'ab2']), listing(second, ['ab3'])];
    const message = await failure(findSessionById('ab', adapters, where));
    assert.match(message, /^ambiguous session id 'ab': it starts 3 sessions, give more of it: ab1 \(.+: title of ab1\), ab2 \(.+\), ab3 \(.+\)$/);
    assert.ok(!message.includes('\n'), 'one line: the CLI prints errors on one');
    assert.match(await failure(findSessionById('q', adapters, where)), /^unknown session id 'q' \(looked in the sessions of /);
  });

  it('counts one session listed twice (a folder named twice) once', async () => {
    const adapters = [listing(first, ['abc', 'abc'])];
    assert.equal((await findSessionById('a', adapters, where)).path, `/sessions/${first.id}/abc`);
  });

  it('resolves a prefix exactly when one id starts with it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[0-9a-f]{1,6}$/), { minLength: 1, maxLength: 8 }),
        fc.stringMatching(/^[0-9a-f]{1,3}$/),
        async (ids, prefix) => {
          const adapters = [listing(first, ids)];
          const starting = ids.filter((id) => id.startsWith(prefix));
          const expected = ids.includes(prefix) ? prefix : starting.length === 1 ? starting[0] : undefined;
          if (expected !== undefined) assert.equal((await findSessionById(prefix, adapters, where)).path, `/sessions/${first.id}/${expected}`);
          else assert.match(await failure(findSessionById(prefix, adapters, where)), starting.length === 0 ? /^unknown/ : /^ambiguous/);
        },
      ),
    );
  });
});

describe('short session ids on the command line', () => {
  it('Claude Code: inspects by the first 8 characters of the id', async () => {
    const copy = copyScenario('demo');
    const result = await run(['inspect', copy.sessionId.slice(0, 8), '--json', '--config-dir', copy.configDir]);
    assert.equal(result.code, 0, result.err);
    assert.equal((JSON.parse(result.out) as { session: { id: string } }).session.id, copy.sessionId);
    const unknown = await run(['inspect', 'ffffffff', '--config-dir', copy.configDir]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /unknown session id 'ffffffff'/);
  });

  it('OpenCode: `ses_` and a few characters, alone or after its database and #', async () => {
    const db = join(tempDir('cl-cli-prefix-'), 'opencode.db');
    writeFileSync(db, gunzipSync(readFileSync(join(FIXTURES, 'opencode', 'recorded', 'tools.db.gz'))));
    const listed = await run(['sessions', '--all', '--json', '--agent', 'opencode', '--opencode-db', db]);
    const [session] = JSON.parse(listed.out) as { id: string }[];
    assert.ok(session);
    const short = session.id.slice(0, 'ses_'.length + 4);
    for (const argv of [
      ['inspect', short, '--opencode-db', db, '--json'],
      ['inspect', `${db}#${short}`, '--json'],
    ]) {
      const result = await run(argv);
      assert.equal(result.code, 0, `${argv.join(' ')}: ${result.err}`);
      assert.equal((JSON.parse(result.out) as { session: { id: string } }).session.id, session.id);
    }
    const missing = await run(['inspect', `${db}#ses_nothere`]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /unknown session id/);
  });

  it("Gemini CLI: the short id in the chat's file name", async () => {
    const home = join(tempDir('cl-cli-prefix-'), 'gemini');
    cpSync(join(FIXTURES, 'gemini', 'recorded', 'chat', 'gemini'), home, { recursive: true });
    const result = await run(['inspect', '1f9df972', '--agent', 'gemini', '--gemini-home', home, '--json']);
    assert.equal(result.code, 0, result.err);
    assert.equal((JSON.parse(result.out) as { session: { id: string } }).session.id, '1f9df972-d536-4d66-978c-278801db3bad');
  });
});
