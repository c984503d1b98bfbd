// Forks of rollouts the recorded fixture does not cover, built in the real CLI's shapes: Codex's own
// encrypted compaction item (kept verbatim, counted at Codex's estimate), a rollout that ends
// mid-call (closed as Codex closes an interrupted call), and the source's title in the fork.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { adapterOf } from '../../../../src/sessions/agents';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { readCodexLiveContext } from '../../../../src/sessions/codex';
import { opaqueCompactionTokens } from '../../../../src/sessions/codex/records';
import { assistant, call, compacted, compaction, item, meta, output, tokenCount, turnContext, user, writeRollout, type Line } from './syntheticRollout';

const adapter = adapterOf('codex');
const ENCRYPTED = compaction(12_000);

async function compactAndFork(path: string, drop: (kind: string, index: number) => boolean = () => false, meanwhile: () => void = () => undefined) {
  const session = await adapter.readSessionInfo(path);
  assert.ok(session.ok);
  const live = await adapter.readLiveContext(session.value);
  assert.ok(live.ok, live.ok ? '' : live.error.message);
  const context = engineContextOf(live.value);
  const dropped = context.items.flatMap((entry, index) => (drop(entry.kind, index) ? [index] : []));
  const result = await compact(context, { trigger: 'manual', choices: { keep: [], drop: dropped } }, { archive: new MemoryArchive() });
  assert.equal(result.status, 'compacted', result.message);
  meanwhile();
  const fork = await adapter.writeFork({ live: live.value, context, result, title: `${live.value.session.title} (compacted)` });
  return { live: live.value, context, result, fork };
}

const records = (path: string): { type: string; payload: Record<string, unknown> }[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });

describe('Codex forks of synthetic rollouts', () => {
  const home = mkdtempSync(join(tmpdir(), 'cl-codex-synth-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  let n = 0;
  const rollout = (lines: Line[]): string => writeRollout(join(home, `h${n++}`), lines);

  const work: Line[] = [
    item(user('Count the ledger lines.')),
    item(call('c1', 'cat data/ledger.csv')),
    item(output('c1', 'a,b\n'.repeat(400))),
    tokenCount(6000),
    item(assistant('The ledger has 400 lines.')),
    item(user('Now check the sums.')),
    item(call('c2', 'node sum.js')),
    item(output('c2', 'ok')),
    tokenCount(7000),
    item(assistant('The sums are right.')),
  ];

  for (const [where, lines] of [
    ['a compacted record (remote compaction)', [meta(), turnContext(), compacted('', [user('Fix the off-by-one in sum.js.'), ENCRYPTED]), ...work]],
    ['a response_item', [meta(), turnContext(), item(user('Fix the off-by-one in sum.js.')), item(ENCRYPTED), ...work]],
  ] as const) {
    it(`keeps Codex's encrypted compaction item verbatim from ${where}, counted at Codex's own estimate`, async () => {
      const path = rollout([...lines]);
      const { context, result, fork } = await compactAndFork(path, (kind, index) => kind === 'tool_result' && index < 8);
      const opaque = context.items.filter((entry) => entry.text.startsWith("[Codex's own compaction"));
      assert.equal(opaque.length, 1, 'the engine sees it as one item');
      assert.equal(opaque[0]?.kind, 'system', 'in the head, which no tier rewrites');
      const fates = result.items.filter((fate) => fate.id === opaque[0]?.id);
      assert.equal(fates[0]?.fate, 'preserved');
      // Codex's estimate (12,000 bytes → 16,000 base64 chars → (12,000 − 650) / 4) is its weight when the
      // first call's measured prompt is shared out: counted, never more than that prompt.
      assert.equal(opaqueCompactionTokens(ENCRYPTED), 2838);
      const firstPrompt = context.calls?.[0]?.promptTokens ?? 0;
      assert.ok((opaque[0]?.tokens ?? 0) > 0 && (opaque[0]?.tokens ?? 0) <= firstPrompt, `${opaque[0]?.tokens} tokens of a ${firstPrompt}-token first prompt`);
      assert.notEqual(opaque[0]?.basis, 'estimated');
      assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
      const history = records(fork.value.path).find((record) => record.type === 'compacted')?.payload.replacement_history as Record<string, unknown>[];
      assert.deepEqual(
        history.filter((entry) => entry.type === 'compaction'),
        [ENCRYPTED],
        'kept byte for byte',
      );
      const again = await readCodexLiveContext(fork.value.path);
      assert.ok(again.ok);
      assert.ok(
        again.value.system?.some((block) => String(block.text).startsWith("[Codex's own compaction")),
        'and read again from the fork',
      );
    });
  }

  it("remembers the source session's title as source_title, the fork's own as title", async () => {
    const path = rollout([meta(), turnContext(), ...work]);
    const { live, fork } = await compactAndFork(path, (kind, index) => kind === 'tool_result' && index < 5);
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    const mark = records(fork.value.path)[0]?.payload.context_lens as Record<string, unknown>;
    assert.equal(live.session.title, 'Count the ledger lines.');
    assert.equal(mark.source_title, 'Count the ledger lines.');
    assert.equal(mark.title, 'Count the ledger lines. (compacted)');
    const info = await adapter.readSessionInfo(fork.value.path);
    assert.ok(info.ok);
    assert.equal(info.value.forkOf?.title, 'Count the ledger lines.');
  });

  it("an output Codex writes between the plan and the fork stays out of it: the fork is of the plan's read (issue 40)", async () => {
    const path = rollout([meta(), turnContext(), ...work, item(user('Run the tests.')), item(call('c3', 'npm test'))]);
    const answered = (): void =>
      appendFileSync(path, `${JSON.stringify({ timestamp: '2026-11-23T22:18:00.000Z', type: 'response_item', payload: output('c3', 'all green') })}\n`);
    const { fork } = await compactAndFork(path, (kind, index) => kind === 'tool_result' && index < 5, answered);
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    const history = records(fork.value.path).find((record) => record.type === 'compacted')?.payload.replacement_history as Record<string, unknown>[];
    assert.deepEqual(history.at(-1), { type: 'function_call_output', call_id: 'c3', output: 'aborted' });
  });

  it('closes a call the rollout ends in the middle of with the output Codex records for an interrupted call, and says so', async () => {
    const path = rollout([meta(), turnContext(), ...work, item(user('Run the tests.')), item(call('c3', 'npm test'))]);
    const { fork } = await compactAndFork(path, (kind, index) => kind === 'tool_result' && index < 5);
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    const history = records(fork.value.path).find((record) => record.type === 'compacted')?.payload.replacement_history as Record<string, unknown>[];
    const at = history.findIndex((entry) => entry.call_id === 'c3' && entry.type === 'function_call');
    assert.deepEqual(history[at + 1], { type: 'function_call_output', call_id: 'c3', output: 'aborted' });
    assert.equal(history.length, at + 2);
    assert.equal(fork.value.notes?.length, 1);
    assert.match(fork.value.notes?.[0] ?? '', /exec_command \(c3\) had no output yet.*'aborted'/);
  });
});
