// The `ctxlens` launcher the extension puts on PATH: written atomically and executable in the first
// user bin folder on PATH, runs the bundled CLI with the host's runtime, never replaces or removes a
// file it did not write.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  CLI_NAME,
  installLauncher,
  isOurLauncher,
  launcherOnPath,
  launcherPlace,
  launcherScript,
  refreshLauncher,
  uninstallLauncher,
  type LauncherRuntime,
  type LauncherWhere,
} from '../../../src/host/cliLauncher';
import { tempDir } from '../../support/tempDir';

const posix = process.platform !== 'win32';

/** A home with the given bin folders on PATH, and a stand-in CLI that prints its arguments. */
function setUp(onPath: readonly string[], cliFolderName = "dist o'clock $x"): { where: LauncherWhere; runtime: LauncherRuntime; home: string } {
  const home = tempDir('cl-launcher-');
  const dist = join(home, 'ext', cliFolderName);
  mkdirSync(dist, { recursive: true });
  const cli = join(dist, 'cli.js');
  const echo = (bundle: string) =>
    `process.stdout.write(JSON.stringify({ bundle: '${bundle}', args: process.argv.slice(2), electron: process.env.ELECTRON_RUN_AS_NODE ?? null }));`;
  writeFileSync(cli, echo('cli'));
  writeFileSync(join(dist, 'statusline.js'), echo('statusline'));
  const pathEnv = [...onPath.map((folder) => join(home, folder)), '/usr/bin', '/bin'].join(':');
  return { where: { home, pathEnv, platform: 'linux' }, runtime: { execPath: process.execPath, isElectron: false, cli }, home };
}

describe('the ctxlens launcher', { skip: !posix && 'sh launchers are for POSIX systems' }, () => {
  it('goes into ~/.local/bin when that is on PATH (before ~/bin), executable, and runs the bundled CLI with its arguments', async () => {
    const { where, runtime, home } = setUp(['bin', '.local/bin']);
    const outcome = await installLauncher(runtime, where);
    assert.ok(outcome.ok);
    assert.equal(outcome.value.path, join(home, '.local', 'bin', CLI_NAME));
    assert.equal(outcome.value.onPath, true);
    assert.equal(statSync(outcome.value.path).mode & 0o777, 0o755);
    assert.ok(isOurLauncher(readFileSync(outcome.value.path, 'utf8')));
    // No temp file left beside it (written atomically).
    assert.deepEqual(readdirSync(join(home, '.local', 'bin')), [CLI_NAME]);
    const ran = spawnSync(CLI_NAME, ['inspect', 'a b', '$HOME'], { env: { PATH: where.pathEnv }, encoding: 'utf8' });
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(JSON.parse(ran.stdout), { bundle: 'cli', args: ['inspect', 'a b', '$HOME'], electron: null });
    assert.equal(await launcherOnPath(where), true);
  });

  it('runs `statusline` with the light status line bundle, and its --help with the CLI', async () => {
    const { where, runtime } = setUp(['.local/bin']);
    await installLauncher(runtime, where);
    const ran = (...args: string[]) =>
      JSON.parse(spawnSync(CLI_NAME, args, { env: { PATH: where.pathEnv }, encoding: 'utf8' }).stdout) as { bundle: string; args: string[] };
    assert.deepEqual(ran('statusline', '--cost'), { bundle: 'statusline', args: ['--cost'], electron: null });
    assert.deepEqual(ran('statusline', '--help'), { bundle: 'cli', args: ['statusline', '--help'], electron: null });
  });

  it('runs Electron as Node when the host is VS Code desktop', () => {
    const script = launcherScript({ execPath: '/usr/share/code/code', isElectron: true, cli: '/ext/dist/cli.js' });
    assert.match(script, /^#!\/bin\/sh\n/);
    assert.ok(script.includes(`ELECTRON_RUN_AS_NODE=1 exec '/usr/share/code/code' "$script" "$@"\n`));
  });

  it('says when its folder is not on PATH (and creates ~/.local/bin)', async () => {
    const { where, runtime, home } = setUp([]);
    assert.deepEqual(launcherPlace(where), { folder: join(home, '.local', 'bin'), onPath: false });
    const outcome = await installLauncher(runtime, where);
    assert.ok(outcome.ok);
    assert.equal(outcome.value.onPath, false);
    assert.ok(existsSync(join(home, '.local', 'bin', CLI_NAME)));
    assert.equal(await launcherOnPath(where), false, 'Connect names it only where the shell finds it');
  });

  it('never replaces nor removes a file of that name it did not write', async () => {
    const { where, runtime, home } = setUp(['.local/bin']);
    const theirs = join(home, '.local', 'bin', CLI_NAME);
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    writeFileSync(theirs, '#!/bin/sh\necho mine\n', { mode: 0o700 });
    const outcome = await installLauncher(runtime, where);
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.error, /exists and was not written by Context Lens/);
    assert.deepEqual(await uninstallLauncher(where), { removed: [], foreign: [theirs] });
    assert.equal(readFileSync(theirs, 'utf8'), '#!/bin/sh\necho mine\n');
  });

  it("takes a named pipe, a link to /dev/zero or a big program of that name for someone else's, at once (never read without end)", async () => {
    for (const [name, make] of [
      ['a named pipe', (path: string) => assert.equal(spawnSync('mkfifo', [path]).status, 0)],
      ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path)],
      ['a 1 MB program', (path: string) => writeFileSync(path, Buffer.alloc(1024 * 1024, 0x7f), { mode: 0o755 })],
    ] as const) {
      const { where, runtime, home } = setUp(['.local/bin']);
      mkdirSync(join(home, '.local', 'bin'), { recursive: true });
      const theirs = join(home, '.local', 'bin', CLI_NAME);
      make(theirs);
      const started = Date.now();
      const outcome = await installLauncher(runtime, where);
      assert.match(outcome.ok ? '' : outcome.error, /exists and was not written by Context Lens/, name);
      assert.equal(await launcherOnPath(where), false, name);
      assert.equal(await refreshLauncher(runtime, where), false, name);
      assert.deepEqual(await uninstallLauncher(where), { removed: [], foreign: [theirs] }, name);
      assert.ok(lstatSync(theirs), `${name} is left where it was`);
      assert.ok(Date.now() - started < 5_000, `${name}: answered at once`);
    }
  });

  it('installs once (a second install changes nothing), and uninstall removes only its own', async () => {
    const { where, runtime, home } = setUp(['.local/bin']);
    const first = await installLauncher(runtime, where);
    const second = await installLauncher(runtime, where);
    assert.ok(first.ok && first.value.changed);
    assert.ok(second.ok && !second.value.changed);
    assert.deepEqual(await uninstallLauncher(where), { removed: [join(home, '.local', 'bin', CLI_NAME)], foreign: [] });
    assert.equal(existsSync(join(home, '.local', 'bin', CLI_NAME)), false);
    assert.deepEqual(await uninstallLauncher(where), { removed: [], foreign: [] });
  });

  it('is re-pointed when the bundled CLI moved (an update), and never created by the refresh', async () => {
    const { where, runtime, home } = setUp(['.local/bin']);
    assert.equal(await refreshLauncher(runtime, where), false);
    assert.equal(existsSync(join(home, '.local', 'bin', CLI_NAME)), false);
    await installLauncher(runtime, where);
    const moved = { ...runtime, cli: join(home, 'ext-0.2.0', 'dist', 'cli.js') };
    assert.equal(await refreshLauncher(runtime, where), false, 'unchanged');
    assert.equal(await refreshLauncher(moved, where), true);
    assert.ok(readFileSync(join(home, '.local', 'bin', CLI_NAME), 'utf8').includes(moved.cli));
  });

  it('is not offered on Windows', async () => {
    const { where, runtime } = setUp(['.local/bin']);
    const outcome = await installLauncher(runtime, { ...where, platform: 'win32' });
    assert.equal(outcome.ok, false);
  });
});
