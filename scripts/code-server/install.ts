// Installs code-server (real VS Code for the browser) and the Node 24 it needs into the tool cache,
// once. Used by `npm start` and the e2e suite.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../cache';
import { missingPrerequisites, prerequisitesMessage, type Probe } from './prerequisites';

export { cacheRoot } from '../cache';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

export interface CodeServerInstall {
  /** Node ≥ 24 to run code-server with. */
  readonly node: string;
  /** code-server's entry script. */
  readonly entry: string;
}

function nodePackageName(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${os}-${process.arch}`;
}

/**
 * The system Node when it is already new enough, else Node 24 from the npm registry. `output`: a log
 * file's descriptor for npm's output (this terminal when absent).
 */
export function ensureNode(log: (line: string) => void, output?: number): { node: string; home: string | null } {
  if (Number(process.versions.node.split('.')[0]) >= 24) return { node: process.execPath, home: null };
  const folder = join(cacheRoot(), `node-${NODE_VERSION}`);
  const homeIn = (root: string) => join(root, 'node_modules', nodePackageName());
  const nodeIn = (root: string) => join(homeIn(root), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  installIntoCache({
    folder,
    spec: `${nodePackageName()}@${NODE_VERSION}`,
    isInstalled: (root) => existsSync(nodeIn(root)),
    log,
    ...(output === undefined ? {} : { output }),
  });
  return { node: nodeIn(folder), home: homeIn(folder) };
}

const codeServerFolder = (): string => join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
const entryIn = (root: string): string => join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** code-server is in the cache already (nothing will be built). */
export const codeServerInstalled = (): boolean => existsSync(entryIn(codeServerFolder()));

/** Throws, naming the packages to install, when code-server still has to be built and the machine cannot build it. */
export function checkBuildPrerequisites(probe?: Probe): void {
  if (codeServerInstalled()) return;
  const message = prerequisitesMessage(missingPrerequisites(probe));
  if (message !== null) throw new Error(message);
}

export function ensureCodeServer(log: (line: string) => void = (line) => console.error(line), output?: number): CodeServerInstall {
  // Before Node 24's download too: a missing header would otherwise fail minutes in.
  checkBuildPrerequisites();
  const { node, home } = ensureNode(log, output);
  const folder = codeServerFolder();
  installIntoCache({
    folder,
    spec: `code-server@${CODE_SERVER_VERSION}`,
    isInstalled: (root) => existsSync(entryIn(root)),
    log,
    ...(output === undefined ? {} : { output }),
    env: {
      PATH: `${join(node, '..')}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
      // Native modules must be built against Node 24's headers, not the system Node's.
      ...(home ? { npm_config_nodedir: home } : {}),
      // code-server's postinstall builds native modules and runs nested installs; npm ≥ 11.19
      // blocks dependency scripts unless allowed. This is a pinned package in a private cache.
      npm_config_dangerously_allow_all_scripts: 'true',
      npm_config_foreground_scripts: 'true',
    },
  });
  return { node, entry: entryIn(folder) };
}
