// Cline's VS Code extension layout on the task folders people published (extension 3.51.0): the
// exact fill is what Cline counted at the last request, every request is a call, our bundled prices
// agree with the cost Cline recorded, its truncation and compaction messages are its own compactions,
// and a fork is a new task folder beside the source's, read back as a fork.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { BUNDLED_PRICES } from '../../../../src/pricing/bundledPrices';
import { indexPrices } from '../../../../src/pricing/prices';
import { sessionCost } from '../../../../src/pricing/sessionCost';
import { clineAdapter } from '../../../../src/sessions/cline/adapter';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { lastRequestFill, publishedStorages, recordedTaskCost } from '../../../support/clineFixtures';
import { listForks } from '../../../../src/sessions/handle/defaults';

const scratch = mkdtempSync(join(tmpdir(), 'cl-cline-legacy-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const storage = publishedStorages().get('gmfstu-online-card-architecture')!;
const TASKS = ['1769053680585', '1769064454592'];
const historyOf = (root: string, task: string): string => join(root, 'tasks', task, 'api_conversation_history.json');

async function live(path: string) {
  const info = await clineAdapter.readSessionInfo(path);
  assert.ok(info.ok, info.ok ? '' : info.error.message);
  const read = await clineAdapter.readLiveContext(info.value);
  assert.ok(read.ok, read.ok ? '' : read.error.message);
  return { info: info.value, live: read.value };
}

describe('Cline extension task folders (published, extension 3.51.0)', () => {
  it('reads each with the fill Cline counted at its last request, its folder and its model', async () => {
    const fills: number[] = [];
    for (const task of TASKS) {
      const { info, live: context } = await live(historyOf(storage, task));
      assert.equal(context.fill.source, 'usage');
      assert.equal(context.fill.usedTokens, lastRequestFill(join(storage, 'tasks', task)));
      assert.equal(info.cwd, '/workspaces/Online-Card-Architecture');
      assert.match(info.model ?? '', /^claude-(sonnet|opus)-4-5/);
      assert.equal(context.fill.windowTokens, 200_000);
      fills.push(context.fill.usedTokens);
    }
    assert.deepEqual(fills, [66_115, 83_785]);
  });

  it('prices every request Cline counted to the cost Cline recorded', async () => {
    for (const task of TASKS) {
      const { info } = await live(historyOf(storage, task));
      const calls = await clineAdapter.readSessionCalls(info);
      assert.ok(calls.ok);
      const ours = sessionCost(indexPrices(BUNDLED_PRICES), calls.value.calls).total;
      assert.deepEqual(ours.unpriced, []);
      assert.ok(
        Math.abs(ours.usd - recordedTaskCost(join(storage, 'tasks', task))) < 1e-9,
        `${task}: ${ours.usd} against Cline's ${recordedTaskCost(join(storage, 'tasks', task))}`,
      );
    }
  });

  it("counts the subagents' usage the extension records (say: subagent_usage) in the session's cost, apart from its own calls", async () => {
    const root = join(scratch, 'subagents');
    cpSync(storage, root, { recursive: true });
    const folder = join(root, 'tasks', TASKS[0]!);
    const ui = JSON.parse(readFileSync(join(folder, 'ui_messages.json'), 'utf8')) as Record<string, unknown>[];
    const usage = { source: 'subagents', tokensIn: 1200, tokensOut: 300, cacheWrites: 4000, cacheReads: 20_000, cost: 0.0291 };
    ui.push({
      ts: 1769060000001,
      type: 'say',
      say: 'subagent_usage',
      text: JSON.stringify(usage),
      modelInfo: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5-20250929', mode: 'act' },
    });
    writeFileSync(join(folder, 'ui_messages.json'), JSON.stringify(ui));
    const { info, live: context } = await live(historyOf(root, TASKS[0]!));
    assert.equal(context.fill.usedTokens, 66_115, "the subagents' context is not the task's");
    const calls = await clineAdapter.readSessionCalls(info);
    assert.ok(calls.ok);
    assert.equal(calls.value.calls.length, 47);
    assert.equal(calls.value.subagents.length, 1);
    assert.deepEqual(calls.value.subagents[0]?.calls[0]?.usage, {
      inputTokens: 1200,
      cacheCreationInputTokens: 4000,
      cacheReadInputTokens: 20_000,
      outputTokens: 300,
    });
    const priced = sessionCost(indexPrices(BUNDLED_PRICES), calls.value.subagents[0]!.calls).total.usd;
    // Sonnet 4.5: 1200 × $3 + 4000 × $3.75 + 20 000 × $0.30 + 300 × $15 per million = $0.0291, what Cline would record.
    assert.ok(Math.abs(priced - usage.cost) < 1e-9, `${priced}`);
  });

  it("reads Cline's truncation (conversationHistoryDeletedRange) and its compaction message as its own compactions", async () => {
    const root = join(scratch, 'truncated');
    cpSync(storage, root, { recursive: true });
    const folder = join(root, 'tasks', TASKS[0]!);
    const ui = JSON.parse(readFileSync(join(folder, 'ui_messages.json'), 'utf8')) as Record<string, unknown>[];
    const last = ui.findLastIndex((message) => message.say === 'api_req_started');
    // Cline took messages 2–41 out of what it sends, then reported a compaction, before the last request.
    ui.splice(last, 0, {
      ts: 1769060000000,
      type: 'say',
      say: 'compaction',
      text: JSON.stringify({ status: 'completed', mode: 'auto', tokensBefore: 64_000, tokensAfter: 30_000 }),
      conversationHistoryDeletedRange: [2, 41],
    });
    writeFileSync(join(folder, 'ui_messages.json'), JSON.stringify(ui));
    const { live: context } = await live(historyOf(root, TASKS[0]!));
    assert.equal(context.compactions.length, 2, 'the range and the compaction message');
    assert.deepEqual(
      context.compactions.map((event) => [event.by, event.preTokens, event.postTokens]),
      [
        ['agent', 58_417 + 2_054 + 10, null],
        ['agent', 64_000, 30_000],
      ],
    );
    assert.equal(context.messages.length, 94 - 40, 'the deleted range is not sent');
    assert.equal(context.entries[2]?.uuids[0], 'h42');
  });

  it('writes a fork as a new task folder beside the source, read back as its fork, the source unchanged', async () => {
    const root = join(scratch, 'fork');
    cpSync(storage, root, { recursive: true });
    const path = historyOf(root, TASKS[1]!);
    const before = readFileSync(path);
    const { info, live: context } = await live(path);
    const engine = engineContextOf(context);
    const result = await compact(
      engine,
      { targetPercent: 10, minSavingsPercent: 0, preserve: { recentTurns: 1, recentPercent: 0 } },
      { archive: new MemoryArchive() },
    );
    assert.equal(result.status, 'compacted', result.message);
    const written = await clineAdapter.writeFork({ live: context, context: engine, result, title: 'Cards (compacted)' });
    assert.ok(written.ok, written.ok ? '' : written.error.message);
    assert.match(written.value.path, /tasks\/\d+\/api_conversation_history\.json$/);
    assert.deepEqual(readFileSync(path), before);
    const fork = await live(written.value.path);
    assert.equal(fork.info.forkOf?.sessionId, info.id);
    assert.equal(fork.info.title, 'Cards (compacted)');
    assert.equal(fork.info.cwd, info.cwd);
    assert.equal(fork.live.fill.source, 'estimate');
    assert.equal(fork.live.fill.usedTokens, result.metrics.tokensAfter, 'read back as its plan until its first call');
    assert.ok((await listForks(clineAdapter, info)).some((listed) => listed.id === written.value.sessionId));
    const sent = JSON.parse(readFileSync(written.value.path, 'utf8')) as { role: string }[];
    assert.equal(sent[0]?.role, 'user');
    assert.ok(
      sent.every((message, index) => index === 0 || message.role !== sent[index - 1]?.role),
      'roles alternate',
    );
  });
});
