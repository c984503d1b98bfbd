// The state tracker on every recorded and public transcript, compacted to 15 % of what it holds with
// the summary tier: verification finds no contradiction in the heuristic summary (it would mean the
// summary states what the session later took back, or a false alarm), no open loop is lost, and
// on the sessions where a later item closes what the summarised span left open, the summary says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import type { Context } from '../../../../src/engine/model';
import type { CompactionResult } from '../../../../src/engine/result';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { readCodexLiveContext } from '../../../../src/sessions/codex/liveContext';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { claudeTranscripts } from '../../../support/claudeFixtures';
import { codexRollouts } from '../../../support/codexFixtures';

const transcripts = [
  ...claudeTranscripts().map((transcript) => ({ ...transcript, read: () => readLiveContext(transcript.path) })),
  ...codexRollouts().map((rollout) => ({ ...rollout, name: `codex ${rollout.name}`, read: () => readCodexLiveContext(rollout.path) })),
];

async function compacted(read: () => ReturnType<typeof readLiveContext>): Promise<{ context: Context; result: CompactionResult }> {
  const live = await read();
  assert.ok(live.ok);
  const context = engineContextOf(live.value);
  const result = await compact(
    context,
    { trigger: 'manual', targetTokens: Math.max(1, Math.floor(context.usedTokens * 0.15)) },
    { archive: new MemoryArchive() },
  );
  return { context, result };
}

const doneLines = (result: CompactionResult): string[] =>
  /## Done\n((?:- .*\n?)*)/
    .exec(result.summary?.text ?? '')?.[1]
    ?.split('\n')
    .filter(Boolean) ?? [];

describe('state, not history, on real transcripts', () => {
  for (const { name, read } of transcripts) {
    it(`${name}: the summary contradicts no later item and loses no open loop`, async () => {
      const { result } = await compacted(read);
      if (result.status !== 'compacted' || !result.summary) return;
      const verification = result.verification;
      assert.deepEqual(verification?.contradictions, [], JSON.stringify(verification?.contradictions, null, 1));
      assert.ok((verification?.openLoopsAfter ?? 0) >= (verification?.openLoopsBefore ?? 0));
    });
  }

  it('parallel: the TODO about src/reconcile.ts rounding down is reported done where the agent fixed it', async () => {
    const transcript = transcripts.find((entry) => entry.name === 'parallel');
    assert.ok(transcript);
    const { context, result } = await compacted(transcript.read);
    const fix = context.items.find((item) => item.kind === 'assistant' && /expectedCredit.*now rounds to the nearest cent/.test(item.text));
    assert.ok(fix);
    assert.ok(
      doneLines(result).some((line) => line.startsWith('- TODO: src/reconcile.ts:11 still rounds down') && line.includes(`— done (#${fix.id})`)),
      doneLines(result).join('\n'),
    );
    assert.doesNotMatch(/## Open loops\n(?:- .*\n?)*/.exec(result.summary?.text ?? '')?.[0] ?? '', /still rounds down/);
  });

  it('hook-inputs: the open 4xx question is reported decided where the agent decided it', async () => {
    const transcript = transcripts.find((entry) => entry.name === 'hook-inputs');
    assert.ok(transcript);
    const { result } = await compacted(transcript.read);
    assert.ok(
      doneLines(result).some((line) => /4xx errors are retried is still open.* — done \(#\d+\): Client errors \(4xx\) are now thrown at once/.test(line)),
      doneLines(result).join('\n'),
    );
  });
});
