// The tool cache: pinned tools the project runs but does not depend on (code-server, Node 24, the
// Claude Code CLI) live outside node_modules, installed once from the npm registry.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export { cacheRoot } from '../src/base/node/cacheDir';

export interface CacheInstall {
  readonly folder: string;
  /** npm package spec, pinned: `name@version`. */
  readonly spec: string;
  /** True once `folder` (or a scratch folder) holds a usable install. */
  readonly isInstalled: (folder: string) => boolean;
  /** Added to this process's environment for the install. */
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: (line: string) => void;
  /** Where npm's own output goes (a log file's descriptor); this terminal when absent. */
  readonly output?: number;
}

/**
 * This process's environment without what an outer npm/npx put there: an inherited
 * `npm_config_user_agent` or `npm_node_execpath` names the outer Node, and install scripts that
 * check the Node version (code-server's does) would read that instead of the one running them.
 */
function environmentFor(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'));
  return { ...inherited, ...extra };
}

/**
 * Installs `spec` into `folder` unless it is there already. The install happens in a per-process
 * scratch folder renamed at the end, so an interrupted or concurrent install never looks done.
 */
export function installIntoCache(install: CacheInstall): void {
  if (install.isInstalled(install.folder)) return;
  const log = install.log ?? ((line: string) => console.error(line));
  const scratch = `${install.folder}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ private: true, description: 'Context Lens tool cache' }));
  log(`Installing ${install.spec} into ${install.folder} (once; this can take several minutes)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Install scripts may run the tool once (opencode-ai's and Kilo's run `--version`, which makes its
  // data folders): that goes to a throwaway place, not the person's ~/.local/share.
  const xdg = `${scratch}-xdg`;
  const env = { XDG_DATA_HOME: join(xdg, 'data'), XDG_STATE_HOME: join(xdg, 'state'), ...install.env };
  let result;
  try {
    result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', install.spec], {
      cwd: scratch,
      env: environmentFor(env),
      stdio: ['ignore', install.output ?? 'inherit', install.output ?? 'inherit'],
    });
  } finally {
    rmSync(xdg, { recursive: true, force: true });
  }
  if (result.status !== 0 || !install.isInstalled(scratch)) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(
      `npm install ${install.spec} failed (exit ${result.status ?? result.signal}); see ${install.output === undefined ? 'the output above' : 'the log'}`,
    );
  }
  // Another process may have finished the same install meanwhile: keep theirs.
  if (install.isInstalled(install.folder)) rmSync(scratch, { recursive: true, force: true });
  else {
    rmSync(install.folder, { recursive: true, force: true });
    renameSync(scratch, install.folder);
  }
}
