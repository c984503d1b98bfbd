// `npm start` shows a line per step and keeps what the steps print in a log; a failed step shows
// the log's last lines and where it is.
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { StartLog, StepFailed, TAIL_LINES, tailLines } from '../../../scripts/startLog';
import { tempDir } from '../../support/tempDir';

function started(): { log: StartLog; said: string[]; dir: string } {
  const dir = tempDir('cl-start-');
  const said: string[] = [];
  return { log: new StartLog(join(dir, 'logs', 'npm-start.log'), (line) => said.push(line)), said, dir };
}

describe('npm start: progress and log', () => {
  it('prints one line per step and its time; what the step printed goes to the log only', async () => {
    const { log, said, dir } = started();
    const script = join(dir, 'noisy.js');
    writeFileSync(script, "for (let i = 0; i < 300; i++) console.warn('warning: native build line ' + i); console.log('built');");
    await log.step('Building', () => log.node(script, [], dir));
    log.close();
    assert.equal(said.length, 2);
    assert.equal(said[0], '1. Building…');
    assert.match(said[1] ?? '', /^ {3}done in \d+\.\d s$/);
    const written = readFileSync(log.path, 'utf8');
    assert.match(written, /=== 1\. Building\n/);
    assert.match(written, /native build line 299\n/);
    assert.match(written, /built\n/);
    assert.equal(statSync(log.path).mode & 0o777, 0o600);
  });

  it('on failure, the error carries the log tail and the path', async () => {
    const { log, dir } = started();
    const script = join(dir, 'fails.js');
    writeFileSync(script, "for (let i = 0; i < 100; i++) console.error('line ' + i); process.exit(3);");
    await assert.rejects(
      log.step('Packing', () => log.node(script, [], dir)),
      (error: unknown) => {
        assert.ok(error instanceof StepFailed);
        assert.match(error.message, /^Packing failed: node .*fails\.js exited with 3/);
        assert.ok(error.message.includes(`The last lines of ${log.path}:`));
        assert.ok(error.message.includes('  line 99\n'));
        assert.ok(!error.message.includes('  line 0\n'), 'only the tail');
        assert.ok(error.message.endsWith(`The whole log: ${log.path}`));
        return true;
      },
    );
    log.close();
  });

  it('tailLines keeps the last non-empty lines, in order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z ]{0,8}$/), { maxLength: 80 }), fc.integer({ min: 1, max: TAIL_LINES }), (lines, count) => {
        const kept = lines.filter((line) => line.trim() !== '');
        assert.deepEqual(tailLines(lines.join('\n'), count), kept.slice(Math.max(0, kept.length - count)));
      }),
    );
  });
});
