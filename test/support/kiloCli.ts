// The real Kilo CLI (`@kilocode/cli`, an OpenCode fork), pinned, installed once into the tool cache
// (never into the project's node_modules), and run offline against the loopback chat-completions
// stand-in with everything set from the environment: a private HOME, XDG folders and TMPDIR. Kilo
// reads OpenCode's configuration variables under its own names (KILO_CONFIG_CONTENT, KILO_DB, …);
// its database is `$XDG_DATA_HOME/kilo/kilo.db` unless KILO_DB names another (there is no
// KILO_DATA_DIR in 7.7.7's binary).
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';
import { runCli, type CliRun } from './cliRun';
import { opencodeConfig, type ModelLimit } from './opencodeCli';

// 7.8.1 is the newest `@kilocode/cli`, but the registry has no 7.8.1 of its platform packages
// (`@kilocode/cli-linux-x64` stops at 7.7.9, where `@kilocode/cli` has no 7.7.9): 7.7.7 is the newest that installs.
export const KILO_VERSION = '7.7.7';
/** The native binary is well over 100 MB; anything this big is not a placeholder or a torn download. */
const MIN_BINARY_BYTES = 10_000_000;

function binaryIn(folder: string): string {
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return join(folder, 'node_modules', '@kilocode', `cli-${os}-${arch}`, 'bin', process.platform === 'win32' ? 'kilo.exe' : 'kilo');
}

const isInstalled = (binary: string): boolean => existsSync(binary) && statSync(binary).size > MIN_BINARY_BYTES;

/** Path of the pinned native `kilo` binary, installing it into `<cache>/kilo-<version>` first if needed. */
export function ensureKiloCli(log: (line: string) => void = (line) => console.error(line)): string {
  const folder = join(cacheRoot(), `kilo-${KILO_VERSION}`);
  installIntoCache({ folder, spec: `@kilocode/cli@${KILO_VERSION}`, isInstalled: (root) => isInstalled(binaryIn(root)), log });
  return binaryIn(folder);
}

export interface RunKiloOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  /** Holds HOME, XDG folders and TMPDIR; the database is `kiloDb(root)`. */
  readonly root: string;
  readonly baseUrl: string;
  readonly config?: Record<string, unknown>;
  readonly limit?: ModelLimit;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly binary?: string;
}

/** The database a run in `root` writes: Kilo's default place under the private XDG data folder. */
export const kiloDb = (root: string): string => join(root, 'data', 'kilo', 'kilo.db');

export function kiloEnv(options: Pick<RunKiloOptions, 'root' | 'baseUrl' | 'config' | 'limit' | 'env'>): NodeJS.ProcessEnv {
  const folder = (name: string): string => {
    const path = join(options.root, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const config = opencodeConfig(options.baseUrl, options.config, options.limit);
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: folder('home'),
    XDG_DATA_HOME: folder('data'),
    XDG_CONFIG_HOME: folder('config'),
    XDG_CACHE_HOME: folder('cache'),
    XDG_STATE_HOME: folder('state'),
    TMPDIR: folder('tmp'),
    KILO_CONFIG_CONTENT: config,
    KILO_DISABLE_MODELS_FETCH: 'true',
    KILO_DISABLE_AUTOUPDATE: 'true',
    KILO_DISABLE_LSP_DOWNLOAD: 'true',
    KILO_TELEMETRY_DISABLED: 'true',
    ...options.env,
  };
}

/** Runs the CLI once with stdin closed and an environment built from scratch. */
export function runKilo(options: RunKiloOptions): Promise<CliRun> {
  return runCli(options.binary ?? ensureKiloCli(), options.args, { cwd: options.cwd, env: kiloEnv(options), timeoutMs: options.timeoutMs ?? 90_000 });
}
