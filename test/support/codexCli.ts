// The real Codex CLI, pinned, installed once into the tool cache (never into the project's
// node_modules), and run offline against the loopback stand-in of the Responses API with a private
// CODEX_HOME and HOME. Used by the Codex fixture recorder and the integration tests.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';
import { runCli, type CliRun } from './cliRun';

export const CODEX_VERSION = '0.169.0';
/** A model in this version's built-in list: an unknown one makes it warn about fallback metadata. */
export const CODEX_MODEL = 'gpt-5.5';

/** The npm package's platform binaries (optional dependencies), by Node's platform and arch. */
const TARGETS: Readonly<Record<string, { readonly pkg: string; readonly triple: string; readonly exe: string }>> = {
  'linux-x64': { pkg: 'codex-linux-x64', triple: 'x86_64-unknown-linux-musl', exe: 'codex' },
  'linux-arm64': { pkg: 'codex-linux-arm64', triple: 'aarch64-unknown-linux-musl', exe: 'codex' },
  'darwin-x64': { pkg: 'codex-darwin-x64', triple: 'x86_64-apple-darwin', exe: 'codex' },
  'darwin-arm64': { pkg: 'codex-darwin-arm64', triple: 'aarch64-apple-darwin', exe: 'codex' },
  'win32-x64': { pkg: 'codex-win32-x64', triple: 'x86_64-pc-windows-msvc', exe: 'codex.exe' },
};
/** The native binary is tens of MB; anything this big is not a placeholder or a torn download. */
const MIN_BINARY_BYTES = 1_000_000;

function binaryIn(folder: string): string {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (target === undefined) throw new Error(`No Codex ${CODEX_VERSION} binary for ${process.platform}-${process.arch}`);
  return join(folder, 'node_modules', '@openai', target.pkg, 'vendor', target.triple, 'bin', target.exe);
}

function isInstalled(binary: string): boolean {
  return existsSync(binary) && statSync(binary).size > MIN_BINARY_BYTES;
}

/** Path of the pinned native `codex` binary, installing it into `<cache>/codex-<version>` first if needed. */
export function ensureCodexCli(log: (line: string) => void = (line) => console.error(line)): string {
  const folder = join(cacheRoot(), `codex-${CODEX_VERSION}`);
  installIntoCache({ folder, spec: `@openai/codex@${CODEX_VERSION}`, isInstalled: (root) => isInstalled(binaryIn(root)), log });
  return binaryIn(folder);
}

export interface CodexConfig {
  /** The stand-in's URL (`http://127.0.0.1:<port>`); must be loopback. */
  readonly baseUrl: string;
  readonly model?: string;
  /** Extra top-level `key = value` lines (values already in TOML syntax). */
  readonly extra?: Readonly<Record<string, string>>;
}

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`codex: the provider must be loopback, got ${baseUrl}`);
}

/**
 * `$CODEX_HOME/config.toml` for a loopback provider (see shared/design/codex.md): no retries (a
 * script mismatch fails at once), no update check, analytics or feedback uploads.
 */
export function writeCodexConfig(codexHome: string, config: CodexConfig): void {
  assertLoopback(config.baseUrl);
  const extra = Object.entries(config.extra ?? {}).map(([key, value]) => `${key} = ${value}`);
  const toml = [
    `model = ${JSON.stringify(config.model ?? CODEX_MODEL)}`,
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    ...extra,
    '',
    '[model_providers.fake]',
    'name = "Fake"',
    `base_url = ${JSON.stringify(`${config.baseUrl.replace(/\/$/, '')}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
  ].join('\n');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), toml);
}

export interface ExecArgsOptions {
  readonly prompt: string;
  /** Continue this session (`codex exec resume <id>`); the run's cwd is then the working folder. */
  readonly resume?: string;
  /** Working folder for a new session (`-C`); `resume` takes none. */
  readonly cd?: string;
  /** `-c key=value` overrides. */
  readonly overrides?: Readonly<Record<string, string>>;
}

/** Arguments for one non-interactive turn with approvals and the sandbox off (a throwaway folder). */
export function execArgs(options: ExecArgsOptions): string[] {
  const overrides = Object.entries(options.overrides ?? {}).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  const head = options.resume === undefined ? ['exec'] : ['exec', 'resume'];
  const where = options.resume === undefined && options.cd !== undefined ? ['-C', options.cd] : [];
  return [
    ...head,
    '--dangerously-bypass-approvals-and-sandbox',
    '--skip-git-repo-check',
    ...overrides,
    ...where,
    ...(options.resume === undefined ? [] : [options.resume]),
    options.prompt,
  ];
}

export interface RunCodexOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  /** Becomes CODEX_HOME: rollouts land in `<codexHome>/sessions/YYYY/MM/DD/`. */
  readonly codexHome: string;
  /** A private HOME (default: `<codexHome>/home`), so nothing of the real user's setup leaks in. */
  readonly home?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Defaults to ensureCodexCli(). */
  readonly binary?: string;
}

export type CodexRun = CliRun;

/** Runs the CLI once with stdin closed (it reads more prompt from stdin) and an environment built from scratch. */
export function runCodex(options: RunCodexOptions): Promise<CodexRun> {
  const binary = options.binary ?? ensureCodexCli();
  const home = options.home ?? join(options.codexHome, 'home');
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    CODEX_HOME: options.codexHome,
    FAKE_API_KEY: 'sk-fake-offline-0000000000000000',
    RUST_LOG: 'error',
    ...options.env,
  };
  return runCli(binary, options.args, { cwd: options.cwd, env, timeoutMs: options.timeoutMs });
}

/** Every rollout file under `<codexHome>/sessions`, oldest path first. */
export function rolloutFiles(codexHome: string): string[] {
  const root = join(codexHome, 'sessions');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^rollout-.*\.jsonl$/.test(name)) found.push(path);
    }
  };
  walk(root);
  return found;
}
