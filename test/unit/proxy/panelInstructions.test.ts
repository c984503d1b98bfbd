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
      'x'.repeat(5 * 1024 * 1024),
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

  it('a session of an agent whose requests name none (OpenCode ses_ ids, Gemini uuids) is found by its tool call ids', async () => {
    const { dir, reader } = folder();
    await writePanelInstructions(dir, 'ses_3f2a9c1e7ffeAbCdEf', { drop: ['call_2'], keep: ['call_1'], toolCalls: ['call_1', 'call_2', 'call_3'] });
    await writePanelInstructions(dir, SESSION, { drop: ['toolu_x'], toolCalls: ['toolu_w', 'toolu_x'] });
    assert.deepEqual(reader.of('ses_3f2a9c1e7ffeAbCdEf'), { keep: ['call_1'], drop: ['call_2'] });
    assert.deepEqual(reader.byToolCalls(['call_1', 'call_3']), {
      kind: 'one',
      agentSession: 'ses_3f2a9c1e7ffeAbCdEf',
      instructions: { keep: ['call_1'], drop: ['call_2'] },
    });
    assert.equal(reader.byToolCalls(['toolu_x']).kind, 'one');
    // The newest call not read by the panel yet: the older ones still place the request.
    assert.equal(reader.byToolCalls(['call_1', 'call_4']).kind, 'one');
    assert.deepEqual(reader.byToolCalls(['call_9']), { kind: 'none' });
    assert.deepEqual(reader.byToolCalls([]), { kind: 'none' });
    assert.ok(reader.dropsByCalls());
  });

  it('two sessions holding the same calls (a compacted copy) are never guessed between; the one holding the newest call decides', async () => {
    const { dir, reader } = folder();
    await writePanelInstructions(dir, SESSION, { drop: ['call_1'], toolCalls: ['call_1', 'call_2'] });
    await writePanelInstructions(dir, OTHER, { keep: ['call_1'], toolCalls: ['call_1', 'call_2'] });
    assert.deepEqual(reader.byToolCalls(['call_1', 'call_2']), { kind: 'several', agentSessions: [OTHER, SESSION].sort() });
    // The copy went on: its newest call is its own.
    await writePanelInstructions(dir, OTHER, { keep: ['call_1'], toolCalls: ['call_1', 'call_2', 'call_5'] });
    const placed = reader.byToolCalls(['call_1', 'call_2', 'call_5']);
    assert.equal(placed.kind === 'one' && placed.agentSession, OTHER);
  });

  it('a file without tool calls (an older build) is still read by its session id and places nothing', async () => {
    const { dir, reader } = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${SESSION}.json`), JSON.stringify({ v: 1, agentSession: SESSION, time: new Date().toISOString(), keep: [], drop: ['a'] }));
    assert.deepEqual(reader.of(SESSION), { keep: [], drop: ['a'] });
    assert.deepEqual(reader.byToolCalls(['a']), { kind: 'none' });
    assert.equal(reader.dropsByCalls(), false);
  });
});
