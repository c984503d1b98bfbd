// Installs code-server (real VS Code for the browser) and the Node 24 it needs into a cache folder
// outside the project, once. Used by `npm start` and the e2e suite.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

export interface CodeServerInstall {
  /** Node ≥ 24 to run code-server with. */
  readonly node: string;
  /** code-server's entry script. */
  readonly entry: string;
}

export function cacheRoot(): string {
  return process.env.CONTEXT_LENS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'context-lens');
}

function npmInstall(folder: string, spec: string, env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  // Install into a scratch folder and rename at the end, so an interrupted install never looks done.
  const scratch = `${folder}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ private: true, description: 'Context Lens tool cache' }));
  log(`Installing ${spec} into ${folder} (once; this can take several minutes)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], {
    cwd: scratch,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm install ${spec} failed (exit ${result.status ?? result.signal}); see the output above`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(scratch, folder);
}

function nodePackageName(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${os}-${process.arch}`;
}

/** The system Node when it is already new enough, else Node 24 from the npm registry. */
export function ensureNode(log: (line: string) => void): { node: string; home: string | null } {
  if (Number(process.versions.node.split('.')[0]) >= 24) return { node: process.execPath, home: null };
  const folder = join(cacheRoot(), `node-${NODE_VERSION}`);
  const home = join(folder, 'node_modules', nodePackageName());
  const node = join(home, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(node)) npmInstall(folder, `${nodePackageName()}@${NODE_VERSION}`, process.env, log);
  return { node, home };
}

export function ensureCodeServer(log: (line: string) => void = (line) => console.error(line)): CodeServerInstall {
  const { node, home } = ensureNode(log);
  const folder = join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
  const entry = join(folder, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(entry)) {
    const binDir = join(node, '..');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${binDir}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
      // Native modules must be built against Node 24's headers, not the system Node's.
      ...(home ? { npm_config_nodedir: home } : {}),
      // code-server's postinstall builds native modules and runs nested installs; npm ≥ 11.19
      // blocks dependency scripts unless allowed. This is a pinned package in a private cache.
      npm_config_dangerously_allow_all_scripts: 'true',
      npm_config_foreground_scripts: 'true',
    };
    npmInstall(folder, `code-server@${CODE_SERVER_VERSION}`, env, log);
  }
  return { node, entry };
}
