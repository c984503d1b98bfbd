// The extension's task folders people published, read by the shipped `ctxlens` (each runtime, cold
// and warm) as Cline's, given by path: the exact fill is what Cline counted at the last request, and
// the session's cost what Cline recorded. Before the Cline adapter such a file was taken for a Claude
// Code transcript (exit 0, nothing read).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { lastRequestFill, publishedStorages, recordedTaskCost } from '../support/clineFixtures';
import { eachShippedPass } from '../support/shippedCli';

describe('published Cline task folders, through the shipped ctxlens', { timeout: 300_000 }, () => {
  it('inspects each with the fill Cline counted and costs it as Cline did', async () => {
    const storage = publishedStorages().get('gmfstu-online-card-architecture')!;
    const task = join(storage, 'tasks', '1769053680585');
    const path = join(task, 'api_conversation_history.json');
    await eachShippedPass(async (pass) => {
      const inspected = await pass.run(['inspect', path, '--json'], { cwd: storage });
      assert.equal(inspected.code, 0, runOutcome(inspected));
      const json = JSON.parse(inspected.stdout) as { session: { agent: string }; used: { tokens: number; source: string }; cost: { session: { usd: number } } };
      assert.equal(json.session.agent, 'cline');
      assert.deepEqual(json.used, { ...json.used, tokens: lastRequestFill(task), source: 'usage' });
      const usd = json.cost.session.usd;
      assert.ok(Math.abs(usd - recordedTaskCost(task)) < 1e-6, `${usd} against Cline's ${recordedTaskCost(task)}`);
    });
  });
});
