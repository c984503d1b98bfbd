// `npm start` before it builds anything: the machine can build code-server (the Debian packages to
// install named), the port is free (what holds it named, another port suggested, no false "running"
// line); and each run refreshes the bundled demo session without deleting what the person wrote.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bundledDemoFiles, prepareDemoClaudeConfig } from '../../../scripts/demoSession';
import { missingPrerequisites, prerequisitesMessage, type Probe } from '../../../scripts/code-server/prerequisites';
import { encodeProjectDirName } from '../../../src/sessions/claude-code/paths';

const ROOT = join(__dirname, '..', '..', '..');
const temp = mkdtempSync(join(tmpdir(), 'cl-start-'));
after(() => rmSync(temp, { recursive: true, force: true }));

describe('npm start: prerequisites of building code-server', () => {
  const probe = (commands: string[], headers: string[]): Probe => ({
    hasCommand: (command) => commands.includes(command),
    hasHeader: (header) => headers.includes(header),
  });

  it('names nothing when the toolchain, Python 3 and the Kerberos header are there', () => {
    assert.deepEqual(missingPrerequisites(probe(['c++', 'make', 'python3'], ['gssapi/gssapi.h'])), []);
    assert.equal(prerequisitesMessage([]), null);
  });

  it('names libkrb5-dev when only gssapi/gssapi.h is missing (the failure that came after 2.5 minutes)', () => {
    const message = prerequisitesMessage(missingPrerequisites(probe(['c++', 'make', 'python3'], [])));
    assert.match(message ?? '', /gssapi\/gssapi\.h/);
    assert.match(message ?? '', /sudo apt-get install libkrb5-dev\n/);
  });

  it('names every missing package in one install command; without a compiler the header is named too', () => {
    const cases: [string[], string][] = [
      [[], 'build-essential python3 libkrb5-dev'],
      [['make', 'python3'], 'build-essential libkrb5-dev'],
      [['c++', 'python3'], 'build-essential'],
      [['c++', 'make'], 'python3'],
    ];
    for (const [commands, packages] of cases) {
      const headers = ['gssapi/gssapi.h'];
      assert.match(
        prerequisitesMessage(missingPrerequisites(probe(commands, headers))) ?? '',
        new RegExp(`apt-get install ${packages}\\n`),
        commands.join(','),
      );
    }
  });
});

describe('npm start: the demo configuration', () => {
  it('refreshes the bundled session and keeps a fork the person wrote there in an earlier run', () => {
    const configDir = join(temp, 'demo-config');
    const workspace = join(temp, 'workspace');
    prepareDemoClaudeConfig(workspace, configDir);
    const project = join(configDir, 'projects', encodeProjectDirName(workspace));
    const bundled = bundledDemoFiles();
    assert.ok(bundled.some((file) => file.endsWith('.jsonl')));
    const transcript = join(
      project,
      bundled.find((file) => file.endsWith('.jsonl'))!,
    );
    const original = readFileSync(transcript, 'utf8');
    assert.ok(original.includes(workspace), 'relocated to the workspace');
    // The person's run: a fork beside the demo, notes of theirs, and the demo itself damaged.
    const fork = join(project, '0f0f0f0f-0000-4000-8000-000000000001.jsonl');
    writeFileSync(fork, '{"type":"user"}\n');
    writeFileSync(join(configDir, 'history.jsonl'), 'theirs\n');
    writeFileSync(transcript, 'damaged');
    prepareDemoClaudeConfig(workspace, configDir);
    assert.equal(readFileSync(fork, 'utf8'), '{"type":"user"}\n');
    assert.equal(readFileSync(join(configDir, 'history.jsonl'), 'utf8'), 'theirs\n');
    assert.equal(readFileSync(transcript, 'utf8'), original);
    assert.deepEqual(
      readdirSync(configDir).filter((name) => name.startsWith('.demo-staging')),
      [],
    );
  });
});

/** `npm start` as the person runs it (tsx scripts/start.ts), with a private cache; its exit and output. */
function npmStart(port: number): Promise<{ code: number | null; output: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'start.ts')], {
    cwd: ROOT,
    env: { ...process.env, CONTEXT_LENS_PORT: String(port), CONTEXT_LENS_CACHE: join(temp, 'cache') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(timer), resolve({ code, output, ms: performance.now() - started }))));
}

const listening = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

describe('npm start: a port already taken', () => {
  it('an earlier npm start (a code-server) on the port: says so and suggests CONTEXT_LENS_PORT, exits 1 before building, claims nothing', async () => {
    const server = createServer((request, response) => response.end(request.url === '/healthz' ? '{"status":"alive","lastHeartbeat":0}' : ''));
    const port = await listening(server);
    try {
      const run = await npmStart(port);
      assert.equal(run.code, 1, run.output);
      assert.match(run.output, new RegExp(`port ${port} is already in use by a code-server .*CONTEXT_LENS_PORT=\\d+ npm start`));
      assert.doesNotMatch(run.output, /Context Lens is running|Building/);
      assert.ok(!existsSync(join(temp, 'cache', 'npm-start.log')), 'nothing built, no log started');
    } finally {
      server.close();
    }
  });

  it('another program on the port is named as such', async () => {
    const server = createServer((_request, response) => {
      response.statusCode = 404;
      response.end();
    });
    const port = await listening(server);
    try {
      const run = await npmStart(port);
      assert.equal(run.code, 1, run.output);
      assert.match(run.output, /already in use by a web server \(it answered 404\)/);
    } finally {
      server.close();
    }
  });
});
