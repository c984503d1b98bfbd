// `npm start`: real VS Code (code-server) in a browser, with Context Lens loaded on the bundled
// demo workspace and its recorded Claude Code session. `npm start -- --desktop` uses a local
// `code` binary with --extensionDevelopmentPath instead.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { launchCodeServer } from './code-server/launch';
import { prepareDemoClaudeConfig } from './demo-session';

const ROOT = join(__dirname, '..');
const WORKSPACE = join(ROOT, 'samples', 'demo-workspace');
const desktop = process.argv.includes('--desktop');
function run(script: string, ...args: string[]): void {
  const result = spawnSync(process.execPath, [join(ROOT, script), ...args], { stdio: 'inherit', cwd: ROOT });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function hasCodeBinary(): boolean {
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function main(): Promise<void> {
  // Desktop VS Code runs the build in place (--extensionDevelopmentPath); code-server gets the
  // production build packed as a .vsix and installed, as a person installs it.
  if (desktop) run('esbuild.mjs');
  else {
    run('esbuild.mjs', '--production');
    run('scripts/package-vsix.mjs');
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
  const server = await launchCodeServer({ extensionRoot: ROOT, workspace: WORKSPACE, port, env });
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
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
