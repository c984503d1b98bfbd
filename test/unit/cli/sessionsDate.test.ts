// `ctxlens sessions` and Select Session… tell the same time for a session (when the conversation
// happened: its newest record's time, not the copy's mtime) and both mark a fork Context Lens wrote,
// on the demo session as `npm start` copies it (found there: "2026-11-22 …" in one, "8 min ago" in the other).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatAge, pickerItems } from '../../../src/host/sessions/pickerItems';
import { claudeCodeAdapter } from '../../../src/sessions/claude-code/adapter';
import { run } from './support';

const DEMO = join(__dirname, '..', '..', '..', 'samples', 'claude-config');

describe('sessions and the picker: one date, forks marked', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-sessions-date-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const configDir = join(root, 'claude-config');
  cpSync(DEMO, configDir, { recursive: true });

  it('the demo copied a moment ago: both say when it was recorded', async () => {
    const [listed] = JSON.parse((await run(['sessions', '--all', '--json', '--config-dir', configDir])).out) as {
      id: string;
      path: string;
      lastRecordAtMs: number;
      lastActivityMs: number;
    }[];
    assert.ok(listed && listed.lastRecordAtMs < listed.lastActivityMs - 60_000, 'recorded well before this copy');
    const text = (await run(['sessions', '--all', '--config-dir', configDir])).out;
    assert.ok(text.includes(new Date(listed.lastRecordAtMs).toISOString().replace('T', ' ').slice(0, 16)));
    const info = await claudeCodeAdapter.readSessionInfo(listed.path);
    assert.ok(info.ok);
    const now = Date.now();
    const [item] = pickerItems([info.value], now);
    // Was the copy's age ("just now", "8 min ago").
    assert.ok(item?.description.includes(formatAge(listed.lastRecordAtMs, now)), item?.description);
    assert.ok(!item?.description.includes('just now'), item?.description);
  });

  it('a fork Context Lens wrote is marked in `sessions` as in the picker, not a second row with the same title', async () => {
    const [original] = JSON.parse((await run(['sessions', '--all', '--json', '--config-dir', configDir])).out) as { path: string; title: string }[];
    assert.ok(original);
    const wrote = await run(['compact', original.path, '--write-session', '--archive-dir', join(root, 'archive')]);
    assert.equal(wrote.code, 0, wrote.err);
    const rows = (await run(['sessions', '--all', '--config-dir', configDir])).out.split('\n').filter((line) => line.includes(original.title.slice(0, 20)));
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.equal(rows.filter((line) => line.startsWith('Fork · ')).length, 1, rows.join('\n'));
  });
});
