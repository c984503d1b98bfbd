// Issue 40's fork probes against the built CLI: `compact --write-session` while an agent keeps
// writing its transcript (a recorded Claude Code session replayed line by line, a pause between
// each tool call and its result, as a running tool takes), and a fork whose id meets a file that is
// already there (the id source forced through a preload, as the bundle draws it from node:crypto).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUDE_FIXTURES } from '../claudeFixtures';
import { runCli, type CliRun } from '../cliRun';

/** A long autonomous task: 442 records, dozens of tool calls, each result its own record. */
const FIXTURE = join(CLAUDE_FIXTURES, 'long-autonomous', 'projects', '-home-user-semver-cli', '78939266-a444-4f88-991a-bec71f2436c9.jsonl');
const PROJECT = '-home-user-semver-cli';
const SESSION = '78939266-a444-4f88-991a-bec71f2436c9';

/**
 * Replays the rest of the fixture as the agent would write it, in steps: each step appends records
 * up to and including the next tool call (a parallel group whole), then stops there, the call
 * running, and says `ready`. A `go` line on stdin starts the next step 0–1.2 s later, so each
 * compaction starts with a call pending and its result lands while the compaction reads, plans or
 * writes (or just after: a run takes about a second). It says `done` when the records run out.
 */
const WRITER = `
const fs = require('node:fs');
const [from, to, start] = process.argv.slice(1);
const lines = fs.readFileSync(from, 'utf8').split('\\n').filter(Boolean).slice(Number(start));
const isCall = (line) => line.includes('"type":"tool_use"');
let index = 0;
const step = () => {
  while (index < lines.length) {
    const line = lines[index++];
    fs.appendFileSync(to, line + '\\n');
    if (isCall(line) && !(index < lines.length && isCall(lines[index]))) return process.stdout.write('ready\\n');
  }
  process.stdout.write('done\\n');
};
require('node:readline').createInterface({ input: process.stdin }).on('line', () => setTimeout(step, Math.random() * 1200));
step();
`;

export interface WritingAgentOutcome {
  runs: number;
  failures: string[];
  /** Runs that started with a call pending and its result on the way. */
  racing: number;
  forks: number;
}

/** A private Claude config folder holding the fixture's first `prefix` records as a live session. */
function seedSession(root: string, prefix: number): { config: string; transcript: string } {
  const config = join(root, 'claude');
  const project = join(config, 'projects', PROJECT);
  mkdirSync(project, { recursive: true });
  const transcript = join(project, `${SESSION}.jsonl`);
  const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
  writeFileSync(transcript, `${lines.slice(0, prefix).join('\n')}\n`);
  return { config, transcript };
}

const compactRun = (cli: string, transcript: string, root: string, config: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> =>
  runCli(process.execPath, [cli, 'compact', transcript, '--write-session', '--json', '--archive-dir', join(root, 'archive')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: root, CLAUDE_CONFIG_DIR: config, NO_COLOR: '1', ...extraEnv },
    timeoutMs: 60_000,
  });

/** `runs` compactions with --write-session, one after another, each racing one step of the writer. */
export async function compactWhileWriting(cli: string, root: string, runs: number): Promise<WritingAgentOutcome> {
  const { config, transcript } = seedSession(root, 60);
  const writer: ChildProcess = spawn(process.execPath, ['-e', WRITER, FIXTURE, transcript, '60'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const said: string[] = [];
  let heard: () => void = () => undefined;
  writer.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    said.push(...chunk.split('\n').filter(Boolean));
    heard();
  });
  const next = async (): Promise<string> => {
    while (said.length === 0) await new Promise<void>((resolve) => (heard = resolve));
    return said.shift() as string;
  };
  const exited = new Promise((resolve) => writer.once('exit', resolve));
  const failures: string[] = [];
  let racing = 0;
  try {
    for (let run = 0; run < runs; run++) {
      // The transcript ends with a call still running; the writer appends its result 0–1.2 s from now.
      if ((await next()) !== 'ready') break;
      racing++;
      writer.stdin?.write('go\n');
      const result = await compactRun(cli, transcript, root, config);
      if (result.code !== 0 || result.timedOut) failures.push(`run ${run + 1}: exit ${result.code}: ${result.stderr.trim().split('\n')[0] ?? ''}`);
    }
  } finally {
    writer.stdin?.end();
    writer.kill();
    await exited;
  }
  const forks = readdirSync(join(config, 'projects', PROJECT)).filter((name) => name.endsWith('.jsonl') && name !== `${SESSION}.jsonl`).length;
  return { runs, failures, racing, forks };
}

export interface ExistingNameOutcome {
  /** Per case: the run, and whether the file at the fork's name kept its bytes. */
  cases: { name: string; run: CliRun; untouched: boolean }[];
  /** Hidden temp files left in the project folder. */
  temps: string[];
}

/**
 * Forks whose id is forced (every random UUID the run draws) to the source's own id, then to that
 * of another session in the folder: each write must fail and leave the file there as it was.
 */
export async function forkOntoExistingNames(cli: string, root: string): Promise<ExistingNameOutcome> {
  const other = '0b7c1d1e-5b0f-4c43-9a56-3d7c2a9e1f00';
  const preload = join(root, 'forced-uuid.cjs');
  mkdirSync(root, { recursive: true });
  writeFileSync(preload, "const crypto = require('node:crypto'); crypto.randomUUID = () => process.env.FORCED_UUID;\n");
  const cases: ExistingNameOutcome['cases'] = [];
  const temps: string[] = [];
  for (const [name, id] of [
    ['the source itself', SESSION],
    ['another session', other],
  ] as const) {
    const caseRoot = join(root, id);
    const { config, transcript } = seedSession(caseRoot, 442);
    const project = join(config, 'projects', PROJECT);
    writeFileSync(join(project, `${other}.jsonl`), '{"type":"summary","summary":"another session"}\n');
    const path = join(project, `${id}.jsonl`);
    const before = readFileSync(path);
    const mtime = statSync(path).mtimeMs;
    const run = await compactRun(cli, transcript, caseRoot, config, { NODE_OPTIONS: `--require ${preload}`, FORCED_UUID: id });
    cases.push({ name, run, untouched: readFileSync(path).equals(before) && statSync(path).mtimeMs === mtime });
    temps.push(...readdirSync(project).filter((entry) => entry.startsWith('.')));
  }
  return { cases, temps };
}
