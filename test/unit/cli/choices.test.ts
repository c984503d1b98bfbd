import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyScenario, run } from './support';
import { tempDir } from '../../support/tempDir';

interface Region {
  id: number;
  kind: string;
  label: string;
  fate?: string;
  reason?: string;
  tokens?: number;
}

describe('compact --keep / --drop', () => {
  const copy = copyScenario('repeated-reads');
  const archive = tempDir('cl-archive-');
  const compactJson = async (...flags: string[]) => {
    const result = await run(['compact', copy.transcript, '--json', '--archive-dir', archive, ...flags]);
    assert.equal(result.code, 0, result.err);
    return JSON.parse(result.out) as { status: string; regions: Region[]; tiers: { tier: string }[] };
  };

  it('takes the ids inspect --json numbers, labelled without markup', async () => {
    const inspected = await run(['inspect', copy.transcript, '--json']);
    const regions = (JSON.parse(inspected.out) as { regions: Region[] }).regions;
    assert.deepEqual(
      regions.map((region) => region.id),
      regions.map((_, index) => index),
    );
    for (const region of regions) assert.doesNotMatch(region.label, /<\/?system-reminder>|"input_schema"/);
  });

  it('drops a chosen tool result with its call and keeps a chosen item verbatim, saying it was your choice', async () => {
    const inspected = JSON.parse((await run(['inspect', copy.transcript, '--json'])).out) as { regions: (Region & { toolName?: string })[] };
    const results = inspected.regions.filter((region) => region.kind === 'tool_result');
    const [dropped, kept] = [results[0], results[1]];
    assert.ok(dropped && kept);
    const report = await compactJson('--drop', String(dropped.id), '--keep', `${kept.id}`);
    const byId = new Map(report.regions.map((region) => [region.id, region]));
    assert.equal(byId.get(dropped.id)?.fate, 'dropped');
    assert.equal(byId.get(dropped.id)?.reason, 'your choice (drop)');
    assert.equal(byId.get(dropped.id - 1)?.fate, 'dropped', 'its call goes too');
    assert.equal(byId.get(kept.id)?.fate, 'preserved');
    assert.equal(byId.get(kept.id)?.reason, 'your choice (keep)');
    assert.equal(report.tiers[0]?.tier, 'choice');
  });

  it('accepts comma lists and repeats, and refuses what is not an item', async () => {
    const report = await compactJson('--keep', '0,1', '--keep', '2');
    assert.ok(report.regions.length > 2);
    const bad = await run(['compact', copy.transcript, '--keep', 'x']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--keep needs item numbers/);
    const outside = await run(['compact', copy.transcript, '--drop', '99999']);
    assert.equal(outside.code, 1);
    assert.match(outside.err, /items #0–#\d+/);
    const both = await run(['compact', copy.transcript, '--keep', '5', '--drop', '5']);
    assert.equal(both.code, 2);
    assert.match(both.err, /#5 is both kept and dropped/);
  });

  it('prints the outcome once: "compacted …", not "compacted: compacted …"', async () => {
    const result = await run(['compact', copy.transcript, '--window', '20000', '--archive-dir', archive]);
    assert.match(result.out, /^compacted \d/);
  });

  it("sessions shows the transcript's last timestamp, not the file's mtime (a copy moves the mtime)", async () => {
    const json = JSON.parse((await run(['sessions', '--all', '--json', '--config-dir', copy.configDir])).out) as {
      id: string;
      lastRecordAtMs: number | null;
      lastActivityMs: number;
    }[];
    const session = json.find((entry) => entry.id === copy.sessionId);
    assert.ok(session?.lastRecordAtMs);
    assert.ok(session.lastRecordAtMs < session.lastActivityMs, 'recorded before the test copied it');
    const text = (await run(['sessions', '--all', '--config-dir', copy.configDir])).out;
    assert.ok(text.includes(new Date(session.lastRecordAtMs).toISOString().replace('T', ' ').slice(0, 16)));
  });

  it('says which option is unknown in its own words', async () => {
    const result = await run(['compact', '--frob']);
    assert.equal(result.code, 2);
    assert.match(result.err, /^ctxlens compact: unknown option '--frob'\n/);
    const missing = await run(['compact', 'x', '--focus']);
    assert.match(missing.err, /--focus needs a value/);
  });
});
