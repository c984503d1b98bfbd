// `ctxlens` as a person runs it: the production build of esbuild.mjs (what `npm run package` puts in
// the .vsix), made once per test process in a folder of its own (a parallel `npm run build` wipes
// dist/), run as a process under each runtime the package claims (nodeRuntimes.ts), twice each: a
// cold run, then a warm one from the code cache the cold one wrote, since that cache changes what
// runs (src/cli/codeCache.ts). Every run gets a private cache folder per runtime, no resident reader
// and no Node options from the test process; Node's own warnings on stderr fail the run.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { holdsDynamicImport } from '../../src/cli/codeCache';
import { runCli, runOutcome, type CliRun } from './cliRun';
import { shippedRuntimes, type NodeRuntime } from './nodeRuntimes';

const ROOT = join(__dirname, '..', '..');

let built: string | undefined;

/** `<folder>/cli.js` of the production build, with everything esbuild.mjs puts beside it. */
export function shippedBundle(): string {
  if (built !== undefined) return built;
  const folder = mkdtempSync(join(tmpdir(), 'cl-shipped-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  const dist = join(folder, 'dist');
  const result = spawnSync(process.execPath, [join(ROOT, 'esbuild.mjs'), '--production', '--outdir', dist], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`esbuild.mjs --production failed (exit ${result.status ?? result.signal}):\n${result.stderr}`);
  // Each bundle must be able to run from the code cache, which a dynamic import() rules out on Node 20.
  for (const name of readdirSync(dist).filter((file) => file.endsWith('.js'))) {
    assert.ok(!holdsDynamicImport(readFileSync(join(dist, name), 'utf8')), `${name} holds a dynamic import(): on Node 20 it would run without the code cache`);
  }
  built = join(dist, 'cli.js');
  return built;
}

export interface ShippedRunOptions {
  readonly cwd?: string;
  /** The whole environment of the run (default: this process's); the cache and Node's options are set over it. */
  readonly env?: NodeJS.ProcessEnv;
  /** Written to stdin, then closed; absent: no stdin. */
  readonly input?: string;
  /** Killed after this long (default 60 s). */
  readonly timeoutMs?: number;
  /** A CommonJS file Node loads before the bundle (`node --require FILE cli.js`): a probe, e.g. counting opens. */
  readonly preload?: string;
}

export interface ShippedPass {
  readonly runtime: NodeRuntime;
  /** `cold`: the pass starts without a code cache (its first command writes one); `warm`: with the one the cold pass left. */
  readonly pass: 'cold' | 'warm';
  /** `node 20.16.0, warm`: for assertion messages and names of what a pass writes. */
  readonly label: string;
  /** What an agent that runs `ctxlens` itself (hooks, the status line) needs in its environment: this pass's cache. */
  readonly env: { readonly CONTEXT_LENS_CACHE: string };
  /** `ctxlens <args>` under this pass's runtime and cache. */
  run(args: readonly string[], options?: ShippedRunOptions): Promise<CliRun>;
  /** `ctxlens <args>` left running (a proxy), stdout and stderr piped: the caller ends it. */
  start(args: readonly string[], options?: Omit<ShippedRunOptions, 'input' | 'timeoutMs'>): ChildProcessByStdio<null, Readable, Readable>;
}

/** What the person's shell would not hand `ctxlens`: the test runner's Node options, a VS Code terminal's resident reader. */
const NOT_INHERITED = ['NODE_OPTIONS', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'NODE_V8_COVERAGE', 'CONTEXT_LENS_RESIDENT', 'CONTEXT_LENS_CACHE'];

function passOf(cli: string, runtime: NodeRuntime, pass: 'cold' | 'warm', cache: string): ShippedPass {
  const label = `node ${runtime.version}, ${pass}`;
  const envOf = (options: { readonly env?: NodeJS.ProcessEnv }): NodeJS.ProcessEnv => ({
    ...Object.fromEntries(Object.entries(options.env ?? process.env).filter(([key]) => !NOT_INHERITED.includes(key))),
    CONTEXT_LENS_CACHE: cache,
  });
  return {
    runtime,
    pass,
    label,
    env: { CONTEXT_LENS_CACHE: cache },
    async run(args, options = {}) {
      const run = await runCli(runtime.node, [...(options.preload === undefined ? [] : ['--require', options.preload]), cli, ...args], {
        cwd: options.cwd ?? process.cwd(),
        env: envOf(options),
        ...(options.input === undefined ? {} : { stdin: options.input }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      // `(node:1234) ExperimentalWarning: …`, `(node:1234) [DEP0040] …`: Node speaking to the person, never ours to print.
      assert.doesNotMatch(run.stderr, /\(node:\d+\) /, `${label}: ctxlens ${args.join(' ')}: Node printed a warning\n${runOutcome(run)}`);
      assert.doesNotMatch(run.stderr, /internal error/, `${label}: ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
      return run;
    },
    start(args, options = {}) {
      return spawn(runtime.node, [cli, ...args], { cwd: options.cwd ?? process.cwd(), env: envOf(options), stdio: ['ignore', 'pipe', 'pipe'] });
    },
  };
}

/**
 * Runs `flow` once per runtime and pass (minimum Node cold, warm; newest LTS cold, warm), in that
 * order, each runtime with a cache folder of its own that the cold pass must have filled. A
 * failing flow's error names its pass.
 */
export async function eachShippedPass(flow: (pass: ShippedPass) => Promise<void>): Promise<void> {
  const cli = shippedBundle();
  for (const runtime of shippedRuntimes()) {
    const cache = mkdtempSync(join(tmpdir(), 'cl-shipped-cache-'));
    try {
      for (const pass of ['cold', 'warm'] as const) {
        const shipped = passOf(cli, runtime, pass, cache);
        try {
          await flow(shipped);
        } catch (error) {
          // The reporter prints the stack, which holds the message as it was thrown.
          if (error instanceof Error && !error.message.includes(shipped.label)) {
            const thrown = error.message;
            error.message = `[${shipped.label}] ${thrown}`;
            if (error.stack !== undefined) error.stack = error.stack.replace(thrown, error.message);
          }
          throw error;
        }
        if (pass === 'cold') assert.ok(codeCacheFiles(cache) > 0, `[${shipped.label}] the cold pass left no code cache in ${cache}`);
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }
}

/** The URL a `ctxlens proxy` started by `pass.start` says it listens on; rejects if it exits first. */
export function proxyListening(proxy: ChildProcessByStdio<null, Readable, Readable>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    proxy.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /Listening on (\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    proxy.once('exit', (code) => reject(new Error(`the proxy exited with ${code}`)));
  });
}

/** `ctxlens <args>` in every pass; the runs in pass order. */
export async function runShippedCli(args: readonly string[], options: ShippedRunOptions = {}): Promise<Array<CliRun & { readonly label: string }>> {
  const runs: Array<CliRun & { readonly label: string }> = [];
  await eachShippedPass(async (pass) => {
    runs.push({ ...(await pass.run(args, options)), label: pass.label });
  });
  return runs;
}

/**
 * `ctxlens <args>` once, under the newest runtime with a cache of its own: for what a test needs to
 * know or set up around the flow it proves in every pass.
 */
export async function runShippedOnce(args: readonly string[], options: ShippedRunOptions = {}): Promise<CliRun> {
  const runtime = shippedRuntimes().at(-1);
  assert.ok(runtime);
  const cache = mkdtempSync(join(tmpdir(), 'cl-shipped-cache-'));
  try {
    return await passOf(shippedBundle(), runtime, 'cold', cache).run(args, options);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** Files under `<cache>/code` (Node 22+ keeps its cache in a folder per Node version there). */
function codeCacheFiles(cache: string): number {
  try {
    return readdirSync(join(cache, 'code'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  } catch {
    return 0;
  }
}

/** What the fork tests read of `inspect --json`. */
export interface InspectedJson {
  readonly regions: ReadonlyArray<{ readonly id: number; readonly kind: string }>;
  readonly compactions: ReadonlyArray<{ readonly summary?: string }>;
}

/** What the fork tests read of `compact --json` (`summary` where the agent's fork carries one). */
export interface CompactedJson {
  readonly status: string;
  readonly message: string;
  readonly summary?: string | null;
  readonly fork?: { readonly sessionId: string; readonly path: string; readonly resumeCommand: string };
}
