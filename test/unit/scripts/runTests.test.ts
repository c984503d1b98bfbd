// `npm test` leaves the system's temporary folder as it found it: run-tests.mjs gives the tests a
// private TMPDIR, names what they left there and removes it; and test/support/tempDir.ts removes a
// test's folders when its process exits, failed or not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..');
const outer = mkdtempSync(join(tmpdir(), 'cl-run-tests-'));
after(() => rmSync(outer, { recursive: true, force: true }));

/** run-tests.mjs on one test file whose body is `body`, with `outer/tmp` as the system's temporary folder. */
function runTests(name: string, body: string, flags: string[] = []): { status: number | null; stderr: string; leftInTmp: string[] } {
  const folder = join(outer, name);
  const tmp = join(folder, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const file = join(folder, 'probe.test.ts');
  writeFileSync(
    file,
    `import { mkdtempSync, writeFileSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\nimport { it } from 'node:test';\nimport { tempDir } from ${JSON.stringify(join(ROOT, 'test', 'support', 'tempDir'))};\n${body}\n`,
  );
  // Without NODE_TEST_CONTEXT: the inner runner would take itself for a test inside this one and run nothing.
  const { NODE_TEST_CONTEXT: _inner, ...env } = process.env;
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs'), file, ...flags], {
    cwd: ROOT,
    env: { ...env, TMPDIR: tmp },
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr, leftInTmp: readdirSync(tmp) };
}

describe('the test runner and the temporary folder', () => {
  it('a test that leaks a folder leaves nothing in the system temporary folder; the leak is named', () => {
    const run = runTests('leaky', "it('leaks', () => { writeFileSync(join(mkdtempSync(join(tmpdir(), 'cl-leaky-')), 'f'), 'x'); });");
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.leftInTmp, []);
    assert.match(run.stderr, /left 1 kind\(s\) of entries .*: cl-leaky-/);
  });

  it('--no-tmp-leftovers fails a run that leaked', () => {
    const run = runTests('strict', "it('leaks', () => { mkdtempSync(join(tmpdir(), 'cl-leaky-')); });", ['--no-tmp-leftovers']);
    assert.equal(run.status, 1);
    assert.deepEqual(run.leftInTmp, []);
  });

  it('tempDir folders are gone when the test file ends, even after a failing test', () => {
    const run = runTests(
      'helper',
      "it('fails after making folders', () => { tempDir('cl-helper-'); writeFileSync(join(tempDir('cl-helper-'), 'f'), 'x'); throw new Error('on purpose'); });",
      ['--no-tmp-leftovers'],
    );
    assert.equal(run.status, 1, 'the failing test fails the run');
    assert.doesNotMatch(run.stderr, /left \d+ kind/);
    assert.deepEqual(run.leftInTmp, []);
  });
});
