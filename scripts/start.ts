// `npm start`: real VS Code (code-server) in a browser, with Context Lens loaded on the bundled
// demo workspace and its recorded Claude Code session. `npm start -- --desktop` uses a local
// `code` binary with --extensionDevelopmentPath instead. The terminal shows one line per step and
// the URL; what the steps print goes to a log file (scripts/startLog.ts).
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './cache';
import { checkBuildPrerequisites, ensureCodeServer } from './code-server/install';
import { freePort, launchCodeServer } from './code-server/launch';
import { portProblem } from './code-server/port';
import { prepareDemoClaudeConfig } from './demoSession';
import { StartLog, StepFailed } from './startLog';

const ROOT = join(__dirname, '..');
const WORKSPACE = join(ROOT, 'samples', 'demo-workspace');
const desktop = process.argv.includes('--desktop');
/** Beside the tools it installs; overwritten by each run that passes the preflight (a second `npm start` refused keeps the first's log). */
const LOG_PATH = join(cacheRoot(), 'npm-start.log');
let log: StartLog | null = null;

function hasCodeBinary(): boolean {
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** What would make the run fail after minutes, asked before anything is built: the machine can build code-server, the port is free. */
async function preflight(port: number): Promise<string | null> {
  const taken = await portProblem(port, freePort);
  if (taken !== null) return taken;
  try {
    checkBuildPrerequisites();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

async function main(): Promise<void> {
  const port = Number(process.env.CONTEXT_LENS_PORT ?? 8080);
  if (!desktop) {
    const problem = await preflight(port);
    if (problem !== null) {
      console.error(`npm start: ${problem}`);
      process.exit(1);
    }
  }
  // Desktop VS Code runs the build in place (--extensionDevelopmentPath); code-server gets the
  // production build packed as a .vsix and installed, as a person installs it.
  const LOG = (log = new StartLog(LOG_PATH));
  console.log(`npm start: the build and install output goes to ${LOG.path}`);
  if (desktop) await LOG.step('Building the extension', () => LOG.node('esbuild.mjs', [], ROOT));
  else {
    await LOG.step('Building the extension (production)', () => LOG.node('esbuild.mjs', ['--production'], ROOT));
    await LOG.step('Packing the .vsix', () => LOG.node('scripts/package-vsix.mjs', [], ROOT));
  }
  const claudeConfigDir = prepareDemoClaudeConfig(WORKSPACE);
  const env = { CLAUDE_CONFIG_DIR: claudeConfigDir };

  if (desktop) {
    if (!hasCodeBinary()) {
      console.error('npm start -- --desktop needs the `code` command on PATH (VS Code: "Shell Command: Install \'code\' command in PATH").');
      process.exit(1);
    }
    spawn('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, WORKSPACE], { stdio: 'inherit', env: { ...process.env, ...env } });
    return;
  }

  // The first run installs code-server and Node 24 (minutes, hundreds of native-build lines): into the log.
  await LOG.step('code-server and Node 24 (installed once into the cache)', () => ensureCodeServer((line) => LOG.note(line), LOG.fd));
  const server = await LOG.step(`Starting code-server on port ${port} with the .vsix installed`, () =>
    launchCodeServer({ extensionRoot: ROOT, workspace: WORKSPACE, port, env, log: (line) => LOG.note(line) }),
  );
  LOG.close();
  // Whatever ends this process, code-server and its throwaway profile end with it.
  process.on('exit', () => {
    if (server.pid !== undefined) {
      try {
        process.kill(server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    rmSync(server.profileDir, { recursive: true, force: true });
  });
  let stopping = false;
  void server.exited.then((how) => {
    if (stopping) return;
    console.error(`code-server stopped on its own (${String(how)}); its last output:\n${server.output().split('\n').slice(-20).join('\n')}`);
    process.exit(1);
  });
  console.log(
    `\nContext Lens is running in VS Code at ${server.url}\n` +
      `Demo sessions: ${claudeConfigDir}\n` +
      'Open the Context Lens tab in the panel area, or run "Context Lens: Open Panel". Press Ctrl+C to stop.\n',
  );
  const stop = () => {
    stopping = true;
    void server.stop().then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
}

void main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // A failed step already carries the log's tail and path.
  console.error(error instanceof StepFailed || log === null ? message : `${message}\n(log: ${log.path})`);
  process.exit(1);
});
