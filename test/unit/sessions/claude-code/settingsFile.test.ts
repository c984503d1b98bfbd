import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readSettingsText, settingsPath, writeSettingsText } from '../../../../src/sessions/claude-code/settingsFile';

describe('Claude Code settings file', () => {
  it('reads a missing file as null and creates it, with its folder, as 0644', async () => {
    const path = settingsPath(mkdtempSync(join(tmpdir(), 'cl-settings-')));
    assert.deepEqual(await readSettingsText(path), { ok: true, value: null });
    assert.ok((await writeSettingsText(path, '{}\n')).ok);
    assert.equal(readFileSync(path, 'utf8'), '{}\n');
    assert.equal(statSync(path).mode & 0o777, 0o644);
    assert.deepEqual(readdirSync(join(path, '..')), ['settings.local.json'], 'no temp file is left behind');
  });

  it('keeps the mode the person gave the file', async () => {
    const path = settingsPath(mkdtempSync(join(tmpdir(), 'cl-settings-')));
    assert.ok((await writeSettingsText(path, '{}\n')).ok);
    chmodSync(path, 0o600);
    assert.ok((await writeSettingsText(path, '{"a": 1}\n')).ok);
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('reports what is in the way instead of throwing', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cl-settings-'));
    mkdirSync(settingsPath(project), { recursive: true });
    const read = await readSettingsText(settingsPath(project));
    assert.equal(read.ok, false);
    assert.equal(read.ok ? '' : read.error.code, 'io');
    assert.equal((await writeSettingsText(settingsPath(project), '{}')).ok, false);
  });
});
