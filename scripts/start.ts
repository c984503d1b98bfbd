// `npm start`: real VS Code (code-server) in a browser, with Context Lens loaded on the bundled
// demo workspace and its recorded Claude Code session. `npm start -- --desktop` uses a local
// `code` binary with --extensionDevelopmentPath instead. The terminal shows one line per step and
// the URL; what the steps print goes to a log file (scripts/startLog.ts).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cacheRoot } from './cache';
import { ensureCodeServer } from './code-server/install';
import { launchCodeServer } from './code-server/launch';
import { prepareDemoClaudeConfig } from './demo-session';
import { StartLog, StepFailed } from './startLog';

const ROOT = join(__dirname, '..');
const WORKSPACE = join(ROOT, 'samples', 'demo-workspace');
const desktop = process.argv.includes('--desktop');
/** Beside the tools it installs; overwritten by each run. */
const LOG = new StartLog(join(cacheRoot(), 'npm-start.log'));

function hasCodeBinary(): boolean {
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function main(): Promise<void> {
  // Desktop VS Code runs the build in place (--extensionDevelopmentPath); code-server gets the
  // production build packed as a .vsix and installed, as a person installs it.
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

  const port = Number(process.env.CONTEXT_LENS_PORT ?? 8080);
  // The first run installs code-server and Node 24 (minutes, hundreds of native-build lines): into the log.
  await LOG.step('code-server and Node 24 (installed once into the cache)', () => ensureCodeServer((line) => LOG.note(line), LOG.fd));
  const server = await LOG.step(`Starting code-server on port ${port} with the .vsix installed`, () => launchCodeServer({ extensionRoot: ROOT, workspace: WORKSPACE, port, env, log: (line) => LOG.note(line) }));
  LOG.close();
  console.log(
    `\nContext Lens is running in VS Code at ${server.url}\n` +
      `Demo sessions: ${claudeConfigDir}\n` +
      'Open the Context Lens tab in the panel area, or run "Context Lens: Open Panel". Press Ctrl+C to stop.\n',
  );
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // A failed step already carries the log's tail and path.
  console.error(error instanceof StepFailed ? message : `${message}\n(log: ${LOG.path})`);
  process.exit(1);
});
