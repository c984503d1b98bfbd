// The Node.js versions the shipped CLI is proven on: the oldest the package accepts (package.json's
// `engines.node`, which the README repeats) and the newest LTS. Each is a pinned build from the npm
// registry in the tool cache, installed once, unless the Node running the tests is that version.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';

export interface NodeRuntime {
  /** `20.16.0`. */
  readonly version: string;
  /** The `node` executable. */
  readonly node: string;
}

/** `>=20.16` → `20.16.0`: the oldest Node a person may run `ctxlens` with. */
export function minimumNodeVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { engines: { node: string } };
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(pkg.engines.node.trim());
  if (!match) throw new Error(`package.json engines.node is not of the form >=X.Y: ${pkg.engines.node}`);
  return `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

function packageName(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/** Node `version`: this process's when it is that one, else `<cache>/node-<version>` from the npm registry. */
export function ensureNodeRuntime(version: string, log: (line: string) => void = (line) => console.error(line)): NodeRuntime {
  if (process.versions.node === version) return { version, node: process.execPath };
  const folder = join(cacheRoot(), `node-${version}`);
  const nodeIn = (root: string): string => join(root, 'node_modules', packageName(), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  installIntoCache({ folder, spec: `${packageName()}@${version}`, isInstalled: (root) => existsSync(nodeIn(root)), log });
  return { version, node: nodeIn(folder) };
}

/**
 * The newest LTS line on the day this was pinned (Node 26 entered LTS in October 2026), not the Node 24
 * code-server needs: a person installing `ctxlens` today gets 26.
 */
export const NEWEST_LTS = '26.12.1';

/** The minimum Node and the newest LTS, installed if needed. */
export function shippedRuntimes(): readonly NodeRuntime[] {
  return [ensureNodeRuntime(minimumNodeVersion()), ensureNodeRuntime(NEWEST_LTS)];
}
