// The README's CLI example on the demo prints what the README says it prints, run with the built
// command on the samples as committed — and the panel's demo (samples/ laid out by `npm start` /
// scripts/demoSession.ts) gives the same exact figures, and estimates within what its path adds
// (issue 41 item 15: the README's numbers were those of the unpadded samples, 149,667 → 27,653 and a
// 116-token system prompt, while the panel showed 1,673).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCliLoader } from '../support/cliBundle';
import { runCli } from '../support/cliRun';
import { DEMO_WORKSPACE, prepareDemoSession } from '../support/demoSession';

const ROOT = join(__dirname, '..', '..');
const BLOCK = /<!-- readme-demo[^>]*-->\n```console\n([\s\S]*?)```\n<!-- \/readme-demo -->/;

interface Example {
  args: string[];
  lines: string[];
}

/** The README's `$ node dist/cli.js …` commands, each with the lines it says are printed. */
function examples(): Example[] {
  const block = BLOCK.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1];
  assert.ok(block, 'the README has its checked demo example');
  const out: Example[] = [];
  for (const line of block.trimEnd().split('\n')) {
    const command = /^\$ node dist\/cli\.js (.+)$/.exec(line);
    if (command) out.push({ args: (command[1] ?? '').split(' '), lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

/**
 * The panel's demo has the recorded folder moved to where the workspace is (35 characters in a
 * checkout at /work/wt/text instead of 24): its estimates move by that, 0.2 % of the system prompt.
 */
const TOLERANCE = 0.005;

const numbers = (text: string): number[] => (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((value) => Number(value.replace(/,/g, '')));

describe("the README's CLI example on the demo", () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-readme-demo-'));
  let cli = '';
  const env = { PATH: process.env.PATH, HOME: temp, XDG_STATE_HOME: join(temp, 'state'), NO_COLOR: '1' };
  const run = async (args: readonly string[]): Promise<string> => {
    const result = await runCli(process.execPath, [cli, ...args], { cwd: ROOT, env });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  before(async () => {
    cli = await buildCliLoader(join(temp, 'dist'));
  });
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('prints every line the README shows, with the built command on the committed samples', async () => {
    const all = examples();
    assert.equal(all.length, 2);
    for (const { args, lines } of all) {
      const printed = (await run(args)).split('\n').map((line) => line.trimEnd());
      for (const line of lines)
        assert.ok(printed.includes(line.trimEnd()), `${args.slice(0, 2).join(' ')} prints ${JSON.stringify(line)}:\n${printed.slice(0, 20).join('\n')}`);
    }
  });

  it("gives the panel's demo the same exact totals, and estimates within the few tokens its workspace path adds", async () => {
    const demo = prepareDemoSession(DEMO_WORKSPACE);
    try {
      for (const { args, lines } of examples()) {
        const panelArgs = args.map((arg, index) => (args[index - 1] === '--config-dir' ? demo.claudeConfigDir : arg));
        const printed = (await run(panelArgs)).split('\n');
        for (const line of lines) {
          const label = /^\s*([a-z][a-z ]+?)\s{2,}/.exec(line)?.[1] ?? line.slice(0, 12);
          const found = printed.find((candidate) => candidate.trimStart().startsWith(label.trim()) || (line.startsWith('[') && candidate.startsWith('[')));
          assert.ok(found, `the panel's demo prints a line like ${JSON.stringify(line)}`);
          numbers(line).forEach((value, at) => {
            const panel = numbers(found)[at] ?? Number.NaN;
            assert.ok(
              Math.abs(panel - value) <= (Number.isInteger(value) ? Math.max(2, value * TOLERANCE) : 0.2),
              `${JSON.stringify(line)} vs the panel's ${JSON.stringify(found)}`,
            );
          });
        }
      }
    } finally {
      rmSync(join(demo.claudeConfigDir), { recursive: true, force: true });
    }
  });

  it('lists the prohibition the person lifted later as revoked, not as a constraint (issue 41 item 9)', async () => {
    const report = JSON.parse(
      await run(['compact', 'c6b61ed8-d74f-49a3-9726-211b52f81b9b', '--config-dir', join(ROOT, 'samples', 'claude-config'), '--json']),
    ) as { summary: { text: string }; verification: { ok: boolean } };
    const constraints = report.summary.text.split('## Constraints\n')[1]?.split('\n## ')[0] ?? '';
    assert.doesNotMatch(constraints, /^- Do not change any provider yet\.$/m);
    assert.match(constraints, /^- Revoked \(no longer applies\): "Do not change any provider yet\."/m);
    assert.equal(report.verification.ok, true);
  });
});
