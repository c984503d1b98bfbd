// The real Gemini CLI, pinned, installed once into the tool cache (never into the project's
// node_modules), and run offline against the loopback stand-in of the Gemini API with a private
// HOME (its chats land in `<home>/.gemini/tmp/<project>/chats/`). Used by the Gemini fixture
// recorder and the integration tests. Facts: shared/design/gemini-opencode.md.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';
import { runCli, type CliRun } from './cliRun';

export const GEMINI_VERSION = '0.61.0';
/** A model in this version's built-in list (its default), so it knows the context limit. */
export const GEMINI_MODEL = 'gemini-2.5-pro';

/** The package ships one bundled entry point; it runs on Node >= 20 (its `engines`). */
function entryIn(folder: string): string {
  return join(folder, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
}

/** Path of the pinned CLI's entry script, installing it into `<cache>/gemini-cli-<version>` first if needed. */
export function ensureGeminiCli(log: (line: string) => void = (line) => console.error(line)): string {
  const folder = join(cacheRoot(), `gemini-cli-${GEMINI_VERSION}`);
  installIntoCache({ folder, spec: `@google/gemini-cli@${GEMINI_VERSION}`, isInstalled: (root) => existsSync(entryIn(root)), log });
  return entryIn(folder);
}

export interface GeminiSettings {
  /** Keep the retention cleanup on (it is off by default here: it deletes files sharing a short id). */
  readonly retention?: boolean;
  /** Merged over the offline settings (top-level keys replace). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * `<home>/.gemini/settings.json` for an API-key user with no telemetry, no update check and, unless
 * asked, no retention cleanup. Without the auth type the CLI picks a gateway and exits 41.
 */
export function writeGeminiSettings(home: string, settings: GeminiSettings = {}): void {
  const folder = join(home, '.gemini');
  mkdirSync(folder, { recursive: true });
  const retention = settings.retention === true ? { enabled: true, maxAge: '30d' } : { enabled: false };
  const body = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true, sessionRetention: retention },
    ...settings.extra,
  };
  writeFileSync(join(folder, 'settings.json'), `${JSON.stringify(body, null, 2)}\n`);
}

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`gemini: the API must be loopback, got ${baseUrl}`);
}

export interface RunGeminiOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  /** The private HOME: settings, projects.json and chats live under `<home>/.gemini`. */
  readonly home: string;
  /** The stand-in's URL (`http://127.0.0.1:<port>`); must be loopback. */
  readonly baseUrl: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Defaults to ensureGeminiCli(). */
  readonly entry?: string;
  /** Written to stdin and then closed (default: closed at once). */
  readonly stdin?: string;
}

export type GeminiRun = CliRun;

/**
 * Arguments for one headless turn with tool approvals off (a throwaway folder) and JSON output
 * (its `session_id` names the session); `resume` continues a session (`-r` takes its uuid, a
 * 1-based index or "latest").
 */
export function promptArgs(prompt: string, resume?: string): string[] {
  return [...(resume === undefined ? [] : ['-r', resume]), '-p', prompt, '-o', 'json', '--approval-mode', 'yolo'];
}

/** The session id a `-o json` run printed. */
export function sessionIdOfRun(stdout: string): string {
  const start = stdout.indexOf('{');
  const parsed: unknown = start === -1 ? null : JSON.parse(stdout.slice(start));
  const id = typeof parsed === 'object' && parsed !== null ? (parsed as { session_id?: unknown }).session_id : undefined;
  if (typeof id !== 'string') throw new Error(`gemini: no session_id in its output: ${stdout.slice(0, 300)}`);
  return id;
}

/** The environment of one offline run, built from scratch so nothing of the real user's setup leaks in. */
export function geminiEnv(options: Pick<RunGeminiOptions, 'home' | 'baseUrl' | 'env'>): NodeJS.ProcessEnv {
  assertLoopback(options.baseUrl);
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: options.home,
    GOOGLE_GEMINI_BASE_URL: options.baseUrl,
    GEMINI_API_KEY: 'fake-offline-key',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    NO_COLOR: '1',
    ...options.env,
  };
}

/** Runs the CLI once with the Node running this process. */
export function runGemini(options: RunGeminiOptions): Promise<GeminiRun> {
  const entry = options.entry ?? ensureGeminiCli();
  mkdirSync(options.home, { recursive: true });
  return runCli(process.execPath, [entry, ...options.args], {
    cwd: options.cwd,
    env: geminiEnv(options),
    stdin: options.stdin ?? '',
    timeoutMs: options.timeoutMs,
  });
}

/** Every chat file under `<home>/.gemini/tmp/*\/chats`, sorted by path. */
export function chatFiles(home: string): string[] {
  const root = join(home, '.gemini', 'tmp');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .flatMap((project) => {
      const chats = join(root, project, 'chats');
      if (!existsSync(chats) || !statSync(chats).isDirectory()) return [];
      return readdirSync(chats)
        .sort()
        .filter((name) => /^session-.*\.jsonl$/.test(name))
        .map((name) => join(chats, name));
    });
}
