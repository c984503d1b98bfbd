import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { version } from '../../../package.json';
import { RESIDENT_ENV } from '../../../src/contracts/resident';
import { buildCliBundles, buildCliLoader } from '../../support/cliBundle';
import { copyScenario } from './support';
import { tempDir } from '../../support/tempDir';

describe('dist/cli.js as a process', () => {
  let bin: string;
  before(async () => {
    bin = (await buildCliBundles(tempDir('cl-bin-'))).cli;
  });

  it('answers --version and inspects a session with the real exit codes', () => {
    const versionRun = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    assert.equal(versionRun.status, 0);
    assert.equal(versionRun.stdout.trim(), version);
    const copy = copyScenario('commands');
    const inspect = spawnSync(process.execPath, [bin, 'inspect', copy.sessionId, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CONFIG_DIR: copy.configDir },
    });
    assert.equal(inspect.status, 0, inspect.stderr);
    assert.equal((JSON.parse(inspect.stdout) as { session: { id: string } }).session.id, copy.sessionId);
    const missing = spawnSync(process.execPath, [bin, 'inspect', '/nonexistent.jsonl'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, 'ctxlens inspect: no such transcript: /nonexistent.jsonl\n');
    const usage = spawnSync(process.execPath, [bin, 'sessions', '--bogus'], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
  });
});

describe('dist/cli.js with the resident reader', () => {
  it('hands inspect to a running reader, prints the same, and runs on its own once the reader is gone', async () => {
    const dir = tempDir('cl-bin-res-');
    const loader = await buildCliLoader(join(dir, 'dist'));
    const copy = copyScenario('commands');
    const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_CONFIG_DIR: copy.configDir, CONTEXT_LENS_CACHE: join(dir, 'cache') };
    delete env[RESIDENT_ENV];
    const socket = join(dir, 'cache', 'run', 'test.sock');
    const server = spawn(process.execPath, [loader, 'resident', '--socket', socket], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let serverErr = '';
    server.stderr.on('data', (chunk: Buffer) => (serverErr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((settle) => server.on('exit', settle));
    await new Promise<void>((settle, reject) => {
      server.stdout.once('data', (chunk: Buffer) =>
        chunk.toString('utf8').startsWith(`Serving on ${socket}`) ? settle() : reject(new Error(chunk.toString('utf8'))),
      );
      server.once('exit', () => reject(new Error(`the reader exited: ${serverErr}`)));
    });
    const alone = spawnSync(process.execPath, [loader, 'inspect', copy.sessionId, '--json'], { encoding: 'utf8', env });
    assert.equal(alone.status, 0, alone.stderr);
    const served = spawnSync(process.execPath, [loader, 'inspect', copy.sessionId, '--json'], { encoding: 'utf8', env: { ...env, [RESIDENT_ENV]: socket } });
    assert.equal(served.status, 0, served.stderr);
    assert.equal(served.stdout, alone.stdout);
    const missing = spawnSync(process.execPath, [loader, 'inspect', '/nonexistent.jsonl'], { encoding: 'utf8', env: { ...env, [RESIDENT_ENV]: socket } });
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, 'ctxlens inspect: no such transcript: /nonexistent.jsonl\n');
    // Its standard input closed (the extension host is gone): it stops and takes its socket with it.
    server.stdin.end();
    assert.equal(await exited, 0, serverErr);
    assert.match(serverErr, /stopped: 2 served, 0 left to the client, 0 refused/);
    assert.equal(existsSync(socket), false);
    const after = spawnSync(process.execPath, [loader, 'inspect', copy.sessionId, '--json'], { encoding: 'utf8', env: { ...env, [RESIDENT_ENV]: socket } });
    assert.equal(after.status, 0, after.stderr);
    assert.equal(after.stdout, alone.stdout);
  });
});
