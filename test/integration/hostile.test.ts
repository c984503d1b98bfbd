// Every CLI command and hook on every hostile input (issue 12 §6), as child processes of the shipped
// production build (shippedCli.ts; its code cache private to the test): exit 0 or 1, a one-line
// diagnostic, never a stack trace or a hang, bounded memory, and the inputs byte-identical
// afterwards. The corpus is generated once into test/fixtures/hostile/.
// HOSTILE_REPORT=1 prints the probe table (command, exit, seconds, peak RSS, first stderr line).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { shippedBundle } from '../support/shippedCli';
import { generateHostileCorpus, HOSTILE_DIR, HOSTILE_PROJECT, type HostileInput } from '../support/hostile';

/** Ordinary inputs take a second of CPU; this only catches hangs (on a machine shared with other work). */
const TIMEOUT_MS = 30_000;
/** The inputs that are big on purpose (hundreds of MB to read) get more room. */
const BIG_TIMEOUT_MS = 90_000;
const BIG_INPUTS = new Set(['million-records', 'huge-line']);
/** Peak RSS any command may reach on any input: the 50 MB line needs a few copies of itself. */
const RSS_LIMIT_KB = 700 * 1024;

interface Probe {
  input: string;
  command: string;
  args: string[];
  stdin?: string;
  timeoutMs: number;
}

interface Outcome extends Probe {
  code: number | null;
  timedOut: boolean;
  seconds: number;
  rssKb: number | null;
  cpuSeconds: number | null;
  stdout: string;
  stderr: string;
}

/** The shipped `cli.js` (the loader, with its code cache) and `statusline.js` beside it. */
let bundles: { readonly cli: string; readonly statusline: string };
let scratch: string;
let preload: string;

/** Runs one probe; the preload writes the process's peak RSS to a file when it exits. */
function run(probe: Probe): Promise<Outcome> {
  const rssFile = join(scratch, `rss-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const entry = probe.command === 'statusline.js' ? bundles.statusline : bundles.cli;
  const child = spawn(process.execPath, ['--require', preload, entry, ...probe.args], {
    env: {
      ...process.env,
      HOSTILE_RSS_FILE: rssFile,
      XDG_STATE_HOME: join(scratch, 'state'),
      CONTEXT_LENS_CACHE: join(scratch, 'cache'),
      CLAUDE_CONFIG_DIR: join(scratch, 'no-config'),
      NO_COLOR: '1',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-200_000)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(probe.stdin ?? '');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, probe.timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const usage = existsSync(rssFile) ? (JSON.parse(readFileSync(rssFile, 'utf8')) as { rss: number; cpu: number }) : null;
      resolve({
        ...probe,
        code,
        timedOut,
        seconds: (performance.now() - started) / 1000,
        rssKb: usage?.rss ?? null,
        cpuSeconds: usage === null ? null : usage.cpu / 1e6,
        stdout,
        stderr,
      });
    });
  });
}

/** Runs probes two at a time (the machine has two cores). */
async function runAll(probes: readonly Probe[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array<Outcome>(probes.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < probes.length) {
      const index = next++;
      outcomes[index] = await run(probes[index] as Probe);
    }
  };
  await Promise.all([worker(), worker()]);
  return outcomes;
}

function probesFor(input: HostileInput, writableCopy: string): Probe[] {
  const timeoutMs = BIG_INPUTS.has(input.name) ? BIG_TIMEOUT_MS : TIMEOUT_MS;
  const hookStdin = JSON.stringify({
    session_id: input.name,
    transcript_path: input.path,
    cwd: scratch,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
    source: 'compact',
    custom_instructions: '',
  });
  const statusStdin = JSON.stringify({
    session_id: input.name,
    transcript_path: input.path,
    cwd: scratch,
    model: { id: 'claude-sonnet-5-5', display_name: 'Sonnet' },
  });
  const archive = ['--archive-dir', join(scratch, 'archive')];
  const probe = (command: string, args: string[], stdin?: string): Probe => ({
    input: input.name,
    command,
    args,
    timeoutMs,
    ...(stdin !== undefined ? { stdin } : {}),
  });
  return [
    probe('inspect', ['inspect', input.path]),
    probe('inspect --json', ['inspect', input.path, '--json']),
    probe('compact --json', ['compact', input.path, '--json', ...archive]),
    probe('compact --write-session', ['compact', writableCopy, '--write-session', ...archive]),
    probe('statusline.js', [], statusStdin),
    probe('hook pre-compact', ['hook', 'pre-compact'], hookStdin),
    probe('hook session-start', ['hook', 'session-start'], hookStdin),
  ];
}

async function digest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A one-line diagnostic: at most one line, no stack frames, no internals. */
function checkStderr(outcome: Outcome): string | null {
  const lines = outcome.stderr.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > 1) return `${lines.length} stderr lines`;
  if (/^\s+at |RangeError|TypeError|Error:|node:internal/m.test(outcome.stderr)) return 'stack trace or raw error on stderr';
  return null;
}

describe('hostile inputs through every CLI command', { timeout: 600_000 }, () => {
  let inputs: HostileInput[];
  let copies: string;
  const before_: Map<string, string> = new Map();
  let outcomes: Outcome[] = [];

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cl-hostile-'));
    preload = join(scratch, 'rss.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.HOSTILE_RSS_FILE, JSON.stringify({ rss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime })); });\n",
    );
    mkdirSync(join(scratch, 'no-config'));
    const cli = shippedBundle();
    bundles = { cli, statusline: join(dirname(cli), 'statusline.js') };
    inputs = await generateHostileCorpus();
    for (const input of inputs) if (input.regular) before_.set(input.path, await digest(input.path));
    // --write-session writes next to its transcript: it gets a copy of the corpus (links for the big ones).
    copies = join(scratch, 'config');
    mkdirSync(join(copies, HOSTILE_PROJECT), { recursive: true });
    for (const name of readdirSync(join(HOSTILE_DIR, HOSTILE_PROJECT))) {
      const from = join(HOSTILE_DIR, HOSTILE_PROJECT, name);
      const to = join(copies, HOSTILE_PROJECT, name);
      const stats = lstatSync(from);
      // Hard links: the digests above catch any write through them. The loop and the FIFO are made anew.
      if (stats.isFile()) linkSync(from, to);
      else if (stats.isFIFO()) execFileSync('mkfifo', [to]);
      else symlinkSync(join(copies, HOSTILE_PROJECT, basename(readlinkSync(from))), to);
    }
    const probes: Probe[] = inputs.flatMap((input) => probesFor(input, join(copies, HOSTILE_PROJECT, `${input.name}.jsonl`)));
    probes.push({ input: '(all)', command: 'sessions --all', args: ['sessions', '--all', '--config-dir', HOSTILE_DIR], timeoutMs: TIMEOUT_MS });
    probes.push({
      input: '(all)',
      command: 'sessions --all --json',
      args: ['sessions', '--all', '--json', '--config-dir', HOSTILE_DIR],
      timeoutMs: TIMEOUT_MS,
    });
    outcomes = await runAll(probes);
    if (process.env.HOSTILE_REPORT) {
      const rows = outcomes.map(
        (o) =>
          `| ${o.input} | ${o.command} | ${o.timedOut ? 'TIMEOUT' : o.code} | ${o.seconds.toFixed(1)} s | ${o.cpuSeconds === null ? '?' : `${o.cpuSeconds.toFixed(1)} s`} | ${o.rssKb === null ? '?' : `${Math.round(o.rssKb / 1024)} MB`} | ${(o.stderr.split('\n')[0] ?? '').slice(0, 140).replace(/\|/g, '\\|')} |`,
      );
      console.log(['| input | command | exit | wall | CPU | peak RSS | stderr (first line) |', '|---|---|---|---|---|---|---|', ...rows].join('\n'));
    }
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('exits 0 or 1 within the timeout, with at most a one-line diagnostic and bounded memory', () => {
    const failures = outcomes.flatMap((o) => {
      const problems = [
        o.timedOut ? `hung (killed after ${o.timeoutMs / 1000} s)` : null,
        !o.timedOut && o.code !== 0 && o.code !== 1 ? `exit ${o.code}` : null,
        checkStderr(o),
        o.rssKb !== null && o.rssKb > RSS_LIMIT_KB ? `peak RSS ${Math.round(o.rssKb / 1024)} MB` : null,
        !o.timedOut && o.rssKb === null ? 'no RSS recorded (crashed?)' : null,
      ].filter((problem) => problem !== null);
      return problems.length === 0 ? [] : [`${o.input} / ${o.command}: ${problems.join(', ')}${o.stderr ? `\n    ${o.stderr.slice(0, 300)}` : ''}`];
    });
    assert.deepEqual(failures, []);
  });

  it('hooks and the status line always exit 0', () => {
    const bad = outcomes.filter((o) => /^(hook|statusline)/.test(o.command) && o.code !== 0).map((o) => `${o.input} / ${o.command}: ${o.code}`);
    assert.deepEqual(bad, []);
  });

  it('prints no terminal escapes or bidi overrides in human-readable output', () => {
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const human = outcomes.filter((o) => !o.command.includes('--json') && !o.command.startsWith('hook'));
    const leaking = human.filter((o) => controls.test(o.stdout) || controls.test(o.stderr)).map((o) => `${o.input} / ${o.command}`);
    assert.deepEqual(leaking, []);
  });

  it('leaves every input byte-identical and no temp files next to the copies', async () => {
    for (const [path, hash] of before_) assert.equal(await digest(path), hash, `${basename(path)} changed`);
    const left = readdirSync(join(copies, HOSTILE_PROJECT)).filter((name) => name.endsWith('.tmp') || name.includes('context-lens-tmp'));
    assert.deepEqual(left, []);
    for (const input of inputs.filter((i) => !i.regular)) assert.ok(lstatSync(input.path));
  });
});
