// The file the panel leaves for the live proxies: written privately and atomically, read back as
// it was said, re-read only when it changed, and anything else in its place (invalid, huge, for
// another session, a folder) is no say with one diagnostic, never a throw.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PANEL_FILE_MAX_AGE_MS, PanelInstructionsReader, writePanelInstructions } from '../../../src/proxy/panelInstructions';
import { tempDir } from '../../support/tempDir';

const SESSION = 'e312c332-1269-4f82-b8fb-6059e3c67fa5';
const OTHER = '0b7c4c47-8d43-4a8e-9c55-3a1f6f7d2e10';

function folder(): { dir: string; reader: PanelInstructionsReader; reports: string[] } {
  const dir = join(tempDir('cl-panel-'), 'panel');
  const reports: string[] = [];
  return { dir, reader: new PanelInstructionsReader(dir, (line) => reports.push(line)), reports };
}

describe('panel instructions for the live proxy', () => {
  it('are read back as written, in a file and folder only the user can read', async () => {
    const { dir, reader } = folder();
    const said = {
      windowTokens: 80_000,
      triggerPercent: 50,
      engine: { targetPercent: 40, focus: 'the retry fix', preserve: { pinned: ['never touch prod'] } },
      keep: ['toolu_a'],
      drop: ['toolu_b'],
    };
    assert.ok((await writePanelInstructions(dir, SESSION, said)).ok);
    assert.deepEqual(reader.of(SESSION), said);
    assert.equal(statSync(join(dir, `${SESSION}.json`)).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(dir), [`${SESSION}.json`], 'no temp file left');
  });

  it('a session without a file, or no session at all, is no say', () => {
    const { reader, reports } = folder();
    assert.deepEqual(reader.of(SESSION), {});
    assert.deepEqual(reader.of(null), {});
    assert.deepEqual(reader.of('../../etc/passwd'), {});
    assert.deepEqual(reports, []);
  });

  it('is re-read when it changes, and only then', async () => {
    const { dir, reader } = folder();
    await writePanelInstructions(dir, SESSION, { drop: ['toolu_a'] });
    const first = reader.of(SESSION);
    assert.equal(reader.of(SESSION), first, 'the same object: not read again');
    await writePanelInstructions(dir, SESSION, { drop: ['toolu_b'] });
    assert.deepEqual(reader.of(SESSION).drop, ['toolu_b']);
  });

  it("invalid, huge, another session's or not a file: no say, one diagnostic each, no throw", () => {
    const { dir, reader, reports } = folder();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${SESSION}.json`);
    for (const text of [
      '{"v":1,',
      JSON.stringify({ v: 1, agentSession: OTHER, time: new Date().toISOString(), keep: [], drop: [] }),
      JSON.stringify({ v: 1, agentSession: SESSION, time: 'x', keep: 'all', drop: [] }),
      'x'.repeat(3 * 1024 * 1024),
    ]) {
      writeFileSync(file, text);
      utimesSync(file, new Date(), new Date(Date.now() + reports.length * 1000));
      assert.deepEqual(reader.of(SESSION), {});
    }
    assert.equal(reports.length, 4, reports.join('\n'));
    assert.match(reports[1]!, /another session/);
    assert.match(reports[3]!, /not a file of ours/);
    mkdirSync(join(dir, `${OTHER}.json`));
    assert.deepEqual(reader.of(OTHER), {});
  });

  it('a write removes the files of sessions untouched for a month', async () => {
    const { dir } = folder();
    await writePanelInstructions(dir, OTHER, {});
    const old = new Date(Date.now() - PANEL_FILE_MAX_AGE_MS - 60_000);
    utimesSync(join(dir, `${OTHER}.json`), old, old);
    await writePanelInstructions(dir, SESSION, {});
    assert.deepEqual(readdirSync(dir), [`${SESSION}.json`]);
  });
});
