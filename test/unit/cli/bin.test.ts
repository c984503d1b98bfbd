import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { version } from '../../../package.json';
import { buildCliBundles } from '../../support/cli-bundle';
import { copyScenario } from './support';

describe('dist/cli.js as a process', () => {
  let bin: string;
  before(async () => {
    bin = (await buildCliBundles(mkdtempSync(join(tmpdir(), 'cl-bin-')))).cli;
  });

  it('answers --version and inspects a session with the real exit codes', () => {
    const versionRun = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    assert.equal(versionRun.status, 0);
    assert.equal(versionRun.stdout.trim(), version);
    const copy = copyScenario('commands');
    const inspect = spawnSync(process.execPath, [bin, 'inspect', copy.sessionId, '--json'], { encoding: 'utf8', env: { ...process.env, CLAUDE_CONFIG_DIR: copy.configDir } });
    assert.equal(inspect.status, 0, inspect.stderr);
    assert.equal((JSON.parse(inspect.stdout) as { session: { id: string } }).session.id, copy.sessionId);
    const missing = spawnSync(process.execPath, [bin, 'inspect', '/nonexistent.jsonl'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, 'ctxlens inspect: no such transcript: /nonexistent.jsonl\n');
    const usage = spawnSync(process.execPath, [bin, 'sessions', '--bogus'], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
  });
});
