// The settings file on disk: no symlink written through, writes atomic with the mode kept,
// the previous content backed up, and a file Connect created removed again by Disconnect.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connect, connectionCommands, disconnect, type SettingsEdit } from '../../../../src/sessions/claude-code/connection';
import { readSettings, saveConnected, saveDisconnected, settingsBackupFolder, settingsPath } from '../../../../src/sessions/claude-code/settingsFile';
import { tempDir } from '../../../support/tempDir';

const commands = connectionCommands({ node: '/usr/bin/node', binDir: '/opt/context-lens/bin', platform: 'linux' });
const temp = (prefix: string): string => tempDir(prefix);

/** The edited text, the edit being granted. */
function editedText(edit: SettingsEdit): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.error);
  return edit.value.text;
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.value;
}

/** Connect then Disconnect through the file layer, as the CLI and VS Code do; `check` looks between the two. */
async function cycle(path: string, env: Record<string, string>, check: (backup: string | null) => void = () => undefined): Promise<string | null> {
  const before = value(await readSettings(path));
  const saved = value(await saveConnected(before, editedText(connect(before.text, commands)), env));
  check(saved.backup);
  const connected = value(await readSettings(path));
  value(await saveDisconnected(connected, editedText(disconnect(connected.text, commands)), env));
  return connected.text;
}

describe('Claude Code settings file', () => {
  const env = (): Record<string, string> => ({ XDG_STATE_HOME: temp('cl-state-') });

  it('writes through no symlink, the file or its .claude folder, and names the link and its target (issue 40)', async () => {
    const elsewhere = temp('cl-dotfiles-');
    const outside = join(elsewhere, 'claude-local.json');
    writeFileSync(outside, '{}\n');
    const linkedFile = temp('cl-settings-');
    mkdirSync(join(linkedFile, '.claude'));
    symlinkSync(outside, settingsPath(linkedFile));
    const linkedFolder = temp('cl-settings-');
    symlinkSync(elsewhere, join(linkedFolder, '.claude'));
    for (const [project, link, target] of [
      [linkedFile, settingsPath(linkedFile), outside],
      [linkedFolder, join(linkedFolder, '.claude'), elsewhere],
    ] as const) {
      const path = settingsPath(project);
      const file = value(await readSettings(path));
      const saved = await saveConnected(file, editedText(connect(file.text, commands)), env());
      assert.equal(saved.ok, false);
      const message = saved.ok ? '' : saved.error.message;
      assert.ok(message.startsWith(`${link}`) && message.includes(`is a symbolic link to ${target}`), message);
      assert.equal(readFileSync(outside, 'utf8'), '{}\n');
      assert.deepEqual(readdirSync(elsewhere), ['claude-local.json'], 'nothing written beside the target');
      assert.ok(lstatSync(link).isSymbolicLink());
    }
  });

  it('backs up the previous content, privately, and disconnect gives the file back byte for byte', async () => {
    const project = temp('cl-settings-');
    const path = settingsPath(project);
    const original = '{"cleanupPeriodDays": 12345678901234567890, "a": 1, "a": 2}';
    mkdirSync(join(project, '.claude'));
    writeFileSync(path, original);
    chmodSync(path, 0o600);
    const state = env();
    await cycle(path, state, (backup) => {
      assert.ok(backup !== null && backup.startsWith(settingsBackupFolder(state)));
      assert.equal(readFileSync(backup, 'utf8'), original);
      assert.equal(statSync(backup).mode & 0o777, 0o600);
      assert.equal(statSync(settingsBackupFolder(state)).mode & 0o777, 0o700);
    });
    assert.equal(readFileSync(path, 'utf8'), original);
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('removes a file (and the .claude folder) Connect created', async () => {
    const project = temp('cl-settings-');
    const path = settingsPath(project);
    const connected = await cycle(path, env(), (backup) => assert.equal(backup, null));
    assert.match(connected ?? '', /statusline\.js/);
    assert.equal(existsSync(path), false);
    assert.equal(existsSync(join(project, '.claude')), false);
  });

  it('keeps a .claude folder that was there, and a created file the person added settings to', async () => {
    const project = temp('cl-settings-');
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{}');
    const path = settingsPath(project);
    await cycle(path, env());
    assert.deepEqual(readdirSync(join(project, '.claude')), ['settings.json']);

    const state = env();
    const file = value(await readSettings(path));
    value(await saveConnected(file, editedText(connect(file.text, commands)), state));
    const edited = readFileSync(path, 'utf8').replace('{', '{\n  "model": "opus",');
    writeFileSync(path, edited);
    const connected = value(await readSettings(path));
    value(await saveDisconnected(connected, editedText(disconnect(connected.text, commands)), state));
    assert.equal(readFileSync(path, 'utf8'), '{\n  "model": "opus"\n}\n');
  });

  it('reports what is in the way instead of throwing: a folder, a FIFO-like non-file, a symlink loop', async () => {
    const project = temp('cl-settings-');
    mkdirSync(settingsPath(project), { recursive: true });
    assert.equal((await readSettings(settingsPath(project))).ok, false);
    const looped = temp('cl-settings-');
    mkdirSync(join(looped, '.claude'));
    symlinkSync(join(looped, '.claude', 'other'), settingsPath(looped));
    symlinkSync(settingsPath(looped), join(looped, '.claude', 'other'));
    const loop = await readSettings(settingsPath(looped));
    assert.equal(loop.ok, false);
    assert.match(loop.ok ? '' : loop.error.message, /Symlink loop/);
  });
});
