import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { run } from './support';

function project(settings?: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cl-connect-'));
  const file = join(dir, '.claude', 'settings.local.json');
  if (settings !== undefined) {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(file, settings, { mode: 0o640 });
  }
  return { dir, file };
}

describe('context-lens connect / disconnect', () => {
  it('prints the diff and writes nothing with --dry-run', async () => {
    const { dir, file } = project();
    const result = await run(['connect', dir, '--dry-run']);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^\+\s+"PreCompact": \[/m);
    assert.match(result.out, /hook session-start/);
    assert.match(result.out, /Dry run: nothing written\.\n$/);
    assert.equal(existsSync(file), false);
  });

  it('connects beside the person\'s settings, keeps the file mode, and disconnects back', async () => {
    const original = '{\n  "permissions": { "allow": ["Bash(ls:*)"] }\n}\n';
    const { dir, file } = project(original);
    const connected = await run(['connect', dir]);
    assert.equal(connected.code, 0, connected.err);
    assert.match(connected.out, /Wrote .*settings\.local\.json\n$/);
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { permissions: unknown; hooks: Record<string, unknown>; statusLine: { command: string } };
    assert.deepEqual(settings.permissions, { allow: ['Bash(ls:*)'] });
    assert.deepEqual(Object.keys(settings.hooks), ['PreCompact', 'SessionStart']);
    assert.match(settings.statusLine.command, /statusline\.js"$/);
    assert.equal(statSync(file).mode & 0o777, 0o640);

    assert.match((await run(['connect', dir])).out, /^Already connected/);
    const disconnected = await run(['disconnect', dir]);
    assert.equal(disconnected.code, 0, disconnected.err);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), JSON.parse(original));
    assert.match((await run(['disconnect', dir])).out, /^Not connected/);
  });

  it('refuses a settings file it cannot read as JSON, leaving it as it was', async () => {
    const { dir, file } = project('{ "permissions": ');
    const result = await run(['connect', dir]);
    assert.equal(result.code, 1);
    assert.match(result.err, /was left alone: it is not valid JSON/);
    assert.equal(readFileSync(file, 'utf8'), '{ "permissions": ');
  });

  it('treats extra arguments and unknown flags as usage errors', async () => {
    assert.equal((await run(['connect', 'a', 'b'])).code, 2);
    assert.equal((await run(['disconnect', '--force'])).code, 2);
  });
});
