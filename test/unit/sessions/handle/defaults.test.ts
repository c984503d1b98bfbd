// The port's defaults: what every adapter did alike, done once on the adapter's own members.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENTS } from '../../../../src/sessions/agents';
import { listForks } from '../../../../src/sessions/handle/defaults';
import type { AgentAdapter } from '../../../../src/sessions/port';
import type { Result, SessionInfo } from '../../../../src/sessions/types';

const info = (id: string, lastActivityMs: number, forkOf?: string | null): SessionInfo => ({
  id,
  agent: 'codex',
  path: `/store/${id}`,
  projectDir: '/store',
  cwd: null,
  title: id,
  model: null,
  lastActivityMs,
  sizeBytes: 0,
  isSidechain: false,
  ...(forkOf !== undefined ? { forkOf: { sessionId: forkOf, title: null } } : {}),
});

/** A real adapter whose store beside a session holds exactly `beside`. */
const storing = (beside: Result<SessionInfo[]>): AgentAdapter => ({ ...AGENTS[0]!, sessionsBeside: () => Promise.resolve(beside) });

describe('port defaults: listForks', () => {
  const source = info('src', 10);

  it('lists the sessions beside the source that name it, oldest first, and not the source itself', async () => {
    const beside = [
      info('newer', 30, 'src'),
      source,
      info('other-fork', 25, 'elsewhere'),
      info('plain', 5),
      info('older', 20, 'src'),
      info('unnamed', 1, null),
    ];
    const self = { ...source, forkOf: { sessionId: 'src', title: null } };
    const forks = await listForks(storing({ ok: true, value: [...beside, self] }), source);
    assert.deepEqual(
      forks.map((fork) => fork.id),
      ['older', 'newer'],
    );
  });

  it('lists none when the store cannot be read (the panel shows no forks, nothing throws)', async () => {
    assert.deepEqual(await listForks(storing({ ok: false, error: { code: 'permission-denied', message: 'denied' } }), source), []);
  });

  it('is what every agent uses: none writes its own', () => {
    for (const adapter of AGENTS) assert.equal('listForks' in adapter, false, adapter.id);
  });
});
