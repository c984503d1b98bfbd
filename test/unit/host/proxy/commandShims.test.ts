// The scripts Start Live Proxy puts first on new terminals' PATH for an agent no variable points
// (Codex CLI): run by sh as a terminal would, with a stand-in for the bundled CLI that records how
// it was called, and a stand-in for the agent's real command further down PATH.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isOurShim, makeShimFolder, removeShims, shimScript, writeShimScripts, type ShimCommand } from '../../../../src/host/proxy/commandShims';
import { tempDir } from '../../../support/tempDir';

const CODEX: ShimCommand = { name: 'codex', agent: 'Codex CLI', upstream: 'https://api.openai.com' };

/** A folder (its name with a space and a glob character) holding a `codex` that says it ran, and with what. */
function realCodex(root: string): string {
  const bin = join(root, 'real bin [1]');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\necho "real codex: $*"\n');
  chmodSync(join(bin, 'codex'), 0o755);
  return bin;
}

/** Stands in for dist/cli.js: prints the arguments it was given, one per line. */
function fakeCli(root: string): string {
  const cli = join(root, 'cli.js');
  writeFileSync(cli, "process.stdout.write(process.argv.slice(2).join('\\n') + '\\n');\n");
  return cli;
}

function runIn(folder: string, path: string, args: string[]) {
  return spawnSync('/bin/sh', ['-c', 'codex "$@"', 'sh', ...args], { encoding: 'utf8', env: { PATH: path, HOME: folder } });
}

describe('the live proxy commands of new terminals', () => {
  it('run the real command, found past their own folder, through ctxlens run --via with its arguments as they came', async () => {
    const root = tempDir('cl-shims-');
    const runtime = { execPath: process.execPath, isElectron: false, cli: fakeCli(root) };
    const made = await makeShimFolder(join(root, 'storage'));
    assert.ok(made.ok);
    assert.equal(statSync(made.value).mode & 0o777, 0o700, 'the folder is the person’s alone');
    const written = await writeShimScripts(made.value, [CODEX, { ...CODEX, name: '../evil' }], runtime, 'http://127.0.0.1:4321');
    assert.ok(written.ok);
    assert.deepEqual(readdirSync(made.value), ['codex'], 'a name that is not a plain file name gets no script; no temporary file stays');
    const bin = realCodex(root);
    // Its own folder first, an empty entry (the current folder) and the real one after it.
    const ran = runIn(root, `${made.value}::${bin}:/usr/bin:/bin`, ['exec', '--json', 'it’s "quoted" $HOME']);
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(ran.stdout.trim().split('\n'), [
      'run',
      '--via',
      'http://127.0.0.1:4321',
      '--via-upstream',
      'https://api.openai.com',
      '--',
      join(bin, 'codex'),
      'exec',
      '--json',
      'it’s "quoted" $HOME',
    ]);
  });

  it('run the real command as it is once the proxy stopped', async () => {
    const root = tempDir('cl-shims-');
    const runtime = { execPath: process.execPath, isElectron: false, cli: fakeCli(root) };
    const made = await makeShimFolder(root);
    assert.ok(made.ok);
    assert.ok((await writeShimScripts(made.value, [CODEX], runtime, 'http://127.0.0.1:4321')).ok);
    assert.ok((await writeShimScripts(made.value, [CODEX], runtime, null)).ok);
    const ran = runIn(root, `${made.value}:${realCodex(root)}:/usr/bin:/bin`, ['resume', '--last']);
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.stdout, 'real codex: resume --last\n');
    assert.ok(isOurShim(readFileSync(join(made.value, 'codex'), 'utf8')));
  });

  it('say the command is not found, as the shell would (127), when only the script is on PATH', async () => {
    const root = tempDir('cl-shims-');
    const made = await makeShimFolder(root);
    assert.ok(made.ok);
    assert.ok((await writeShimScripts(made.value, [CODEX], { execPath: process.execPath, isElectron: false, cli: fakeCli(root) }, 'http://127.0.0.1:4321')).ok);
    const ran = runIn(root, `${made.value}:/usr/bin:/bin`, []);
    assert.equal(ran.status, 127);
    assert.match(ran.stderr, /codex: command not found \(Context Lens's live proxy looked on PATH past /);
  });

  it('run Electron as Node, and quote every path for sh', () => {
    const script = shimScript(
      "/tmp/it's here",
      CODEX,
      { execPath: '/opt/VS Code/code', isElectron: true, cli: "/ext/it's/dist/cli.js" },
      { origin: 'http://127.0.0.1:1' },
    );
    assert.match(script, /^here='\/tmp\/it'\\''s here'$/m);
    assert.match(script, /ELECTRON_RUN_AS_NODE=1 exec '\/opt\/VS Code\/code' '\/ext\/it'\\''s\/dist\/cli\.js' run --via/);
  });

  it('go with their folder', async () => {
    const root = tempDir('cl-shims-');
    const made = await makeShimFolder(root);
    assert.ok(made.ok);
    await removeShims(made.value);
    assert.equal(existsSync(made.value), false);
  });
});
