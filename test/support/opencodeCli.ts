// The real OpenCode CLI, pinned, installed once into the tool cache (never into the project's
// node_modules), and run offline against the loopback chat-completions stand-in with everything set
// from the environment (see shared/design/gemini-opencode.md): a private HOME, XDG folders, TMPDIR
// (each run leaves a 5.5 MB .so in the temp folder), database, and npm offline. Used by the fixture recorder and
// the integration tests.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';
import { runCli, type CliRun } from './cliRun';

export const OPENCODE_VERSION = '1.18.33';
export const OPENCODE_MODEL = 'fake/fake-model';
/** The window the stand-in's model declares (OpenCode reads it from the config's `limit`). */
export const OPENCODE_LIMIT = { context: 200_000, output: 8_000 };
/** The native binary is ~185 MB; anything this big is not a placeholder or a torn download. */
const MIN_BINARY_BYTES = 10_000_000;

function binaryIn(folder: string): string {
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return join(folder, 'node_modules', `opencode-${os}-${arch}`, 'bin', process.platform === 'win32' ? 'opencode.exe' : 'opencode');
}

const isInstalled = (binary: string): boolean => existsSync(binary) && statSync(binary).size > MIN_BINARY_BYTES;

/** Path of the pinned native `opencode` binary, installing it into `<cache>/opencode-<version>` first if needed. */
export function ensureOpencodeCli(log: (line: string) => void = (line) => console.error(line), version: string = OPENCODE_VERSION): string {
  const folder = join(cacheRoot(), `opencode-${version}`);
  installIntoCache({ folder, spec: `opencode-ai@${version}`, isInstalled: (root) => isInstalled(binaryIn(root)), log });
  return binaryIn(folder);
}

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`opencode: the provider must be loopback, got ${baseUrl}`);
}

export interface ModelLimit {
  readonly context: number;
  readonly output: number;
}

/** OPENCODE_CONFIG_CONTENT for a loopback provider; `extra` is merged at the top level (e.g. `compaction`). */
export function opencodeConfig(baseUrl: string, extra: Record<string, unknown> = {}, limit: ModelLimit = OPENCODE_LIMIT): string {
  assertLoopback(baseUrl);
  return JSON.stringify({
    model: OPENCODE_MODEL,
    small_model: OPENCODE_MODEL,
    autoupdate: false,
    share: 'disabled',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: `${baseUrl.replace(/\/$/, '')}/v1`, apiKey: 'x' },
        models: { 'fake-model': { limit, tool_call: true } },
      },
    },
    permission: { edit: 'allow', bash: 'allow', webfetch: 'deny' },
    ...extra,
  });
}

export interface RunOpencodeOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  /** Holds HOME, XDG folders, TMPDIR and (unless `db` says otherwise) `opencode.db`. */
  readonly root: string;
  readonly baseUrl: string;
  readonly db?: string;
  readonly config?: Record<string, unknown>;
  /** The model's window (default OPENCODE_LIMIT); a small one makes OpenCode compact soon. */
  readonly limit?: ModelLimit;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly binary?: string;
}

export type OpencodeRun = CliRun;

/** The database a run in `root` writes. */
export const opencodeDb = (root: string): string => join(root, 'opencode.db');

export function opencodeEnv(options: Pick<RunOpencodeOptions, 'root' | 'baseUrl' | 'db' | 'config' | 'limit' | 'env'>): NodeJS.ProcessEnv {
  const folder = (name: string): string => {
    const path = join(options.root, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: folder('home'),
    XDG_DATA_HOME: folder('data'),
    XDG_CONFIG_HOME: folder('config'),
    XDG_CACHE_HOME: folder('cache'),
    XDG_STATE_HOME: folder('state'),
    TMPDIR: folder('tmp'),
    OPENCODE_DB: options.db ?? opencodeDb(options.root),
    OPENCODE_CONFIG_CONTENT: opencodeConfig(options.baseUrl, options.config, options.limit),
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
    // OpenCode 1.18 npm-installs its plugin SDK into every config folder (the config home and each
    // project `.opencode/`) and, once any plugin is there, waits for it before the first request:
    // from the registry that took ~30 s a run and left 64 MB in the project. Offline it fails in ~1 s.
    npm_config_offline: 'true',
    ...options.env,
  };
}

/** Runs the CLI once with stdin closed and an environment built from scratch. */
export function runOpencode(options: RunOpencodeOptions): Promise<OpencodeRun> {
  return runCli(options.binary ?? ensureOpencodeCli(), options.args, { cwd: options.cwd, env: opencodeEnv(options), timeoutMs: options.timeoutMs ?? 90_000 });
}
