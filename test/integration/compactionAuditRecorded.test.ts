// Issue 39, item 2, on the shipped CLI for the Gemini CLI and OpenCode: `ctxlens inspect --json`
// (shippedCli.ts: each runtime, cold and warm) lists, under each of the agent's own compactions,
// exactly the standing rule and the decision its summary dropped, and the others as carried. The
// sessions were recorded with the real CLIs offline (Gemini CLI 0.61.0 compress-audit, OpenCode
// 1.18.33 compaction-audit; see the fixture READMEs); both are read from private copies.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { unpackFixture } from '../support/opencodeWal';
import { eachShippedPass } from '../support/shippedCli';

interface Audited {
  compactions: { by: string; audit?: { carried: { kind: string; text: string }[]; dropped: { kind: string; text: string }[] } }[];
}

const texts = (entries: readonly { kind: string; text: string }[]): string[] => entries.map((entry) => `${entry.kind}: ${entry.text}`).sort();

describe("the audit of the Gemini CLI's and OpenCode's own compactions, on the shipped CLI", { timeout: 240_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-audit-agents-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** `inspect <session> --json` in every pass: the one compaction's audit in each. */
  async function audits(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ carried: string[]; dropped: string[] }[]> {
    const seen: { carried: string[]; dropped: string[] }[] = [];
    await eachShippedPass(async (pass) => {
      const run = await pass.run(['inspect', ...args, '--json'], { cwd, env, timeoutMs: 60_000 });
      assert.equal(run.code, 0, runOutcome(run));
      const { compactions } = JSON.parse(run.stdout) as Audited;
      assert.equal(compactions.length, 1, `${pass.label}: one compaction`);
      const audit = compactions[0]?.audit;
      assert.ok(audit, `${pass.label}: the compaction has an audit`);
      seen.push({ carried: texts(audit.carried), dropped: texts(audit.dropped) });
    });
    return seen;
  }

  it('Gemini CLI (compress-audit): the rule and the decision its <state_snapshot> dropped, the rest carried (the kept prompt too)', async () => {
    const home = join(root, 'gemini-home');
    cpSync(join(__dirname, '..', 'fixtures', 'gemini', 'recorded', 'compress-audit', 'gemini'), join(home, '.gemini'), { recursive: true });
    const chats = join(home, '.gemini', 'tmp', 'inventory-audit', 'chats');
    const chat = join(chats, readdirSync(chats).find((name) => name.startsWith('session-')) as string);
    const cwd = join(home, 'inventory-audit');
    mkdirSync(cwd, { recursive: true });
    const seen = await audits([chat], { ...process.env, HOME: home, GEMINI_CLI_HOME: home }, cwd);
    assert.equal(seen.length, 4);
    for (const audit of seen) {
      assert.deepEqual(audit.dropped, ['decision: We decided to store prices in pence.', 'rule: Always run the linter before you commit.']);
      assert.deepEqual(audit.carried, [
        "decision: Let's go with plain Error objects for stock errors.",
        'file: src/stock.js',
        'open-loop: TODO for later: negative quantities.',
        'rule: Never edit package.json.',
      ]);
    }
  });

  it('OpenCode (compaction-audit, a database): the rule and the decision its summary dropped, the others carried', async () => {
    const folder = join(root, 'opencode');
    mkdirSync(join(folder, 'home'), { recursive: true });
    const db = join(folder, 'opencode.db');
    unpackFixture('compaction-audit', db);
    const env = { ...process.env, HOME: join(folder, 'home'), XDG_DATA_HOME: join(folder, 'data'), XDG_CONFIG_HOME: join(folder, 'config'), OPENCODE_DB: db };
    // The recording's one session (re-recording changes it).
    const seen = await audits(['--agent', 'opencode', 'ses_ddf96ececffeb8LioG5LufWfdc'], env, folder);
    assert.equal(seen.length, 4);
    for (const audit of seen) {
      assert.deepEqual(audit.dropped, [
        'decision: We decided to keep the line format unchanged."',
        'rule: Always run npm test before you report that a change works.',
      ]);
      assert.deepEqual(audit.carried, ["decision: Let's go with plain Error objects for parse errors.", 'rule: Never edit big.txt.']);
    }
  });
});
