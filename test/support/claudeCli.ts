// The real Claude Code CLI, pinned, installed once into the tool cache (never into the project's
// node_modules), and run offline against a loopback stand-in for the Anthropic API with a private
// HOME and CLAUDE_CONFIG_DIR. Used by the fixture recorder and the integration tests.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';
import { encodeProjectDirName } from '../../src/sessions/claude-code/paths';

export const CLAUDE_CODE_VERSION = '2.1.328';
/** What the CLI's `sonnet` alias resolves to in this version. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const ALLOWED_TOOLS = 'Read,Edit,Write,Bash,Grep,Glob';

/** The postinstall copies the native binary over a small placeholder; anything this big is the real one. */
const MIN_BINARY_BYTES = 1_000_000;

function binaryIn(folder: string): string {
  // The package names its binary claude.exe on every platform.
  return join(folder, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
}

function isInstalled(binary: string): boolean {
  return existsSync(binary) && statSync(binary).size > MIN_BINARY_BYTES;
}

/** Path of the pinned `claude` binary, installing it into `<cache>/claude-code-<version>` first if needed. */
export function ensureClaudeCli(log: (line: string) => void = (line) => console.error(line)): string {
  const folder = join(cacheRoot(), `claude-code-${CLAUDE_CODE_VERSION}`);
  installIntoCache({
    folder,
    spec: `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
    isInstalled: (root) => isInstalled(binaryIn(root)),
    log,
    // The package's postinstall copies its platform binary (an optional dependency) into bin/;
    // npm ≥ 11.19 skips dependency scripts unless allowed. Pinned package, private cache folder.
    env: { npm_config_dangerously_allow_all_scripts: 'true' },
  });
  return binaryIn(folder);
}

/** Where the CLI writes the transcripts of sessions run in `cwd`. */
export function projectDir(configDir: string, cwd: string): string {
  return join(configDir, 'projects', encodeProjectDirName(cwd));
}

/** Session ids (transcript file names without `.jsonl`) in a project folder. */
export function sessionIds(configDir: string, cwd: string): string[] {
  const folder = projectDir(configDir, cwd);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.slice(0, -'.jsonl'.length));
}

export interface PrintArgsOptions {
  readonly prompt: string;
  readonly resume?: string;
  readonly model?: string;
  readonly extra?: readonly string[];
}

/** Arguments for one non-interactive prompt with the file and shell tools pre-approved. */
export function printArgs(options: PrintArgsOptions): string[] {
  return [
    '-p',
    options.prompt,
    '--allowedTools',
    ALLOWED_TOOLS,
    '--model',
    options.model ?? DEFAULT_MODEL,
    ...(options.resume ? ['--resume', options.resume] : []),
    ...(options.extra ?? []),
  ];
}

export interface RunClaudeOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  /** Becomes CLAUDE_CONFIG_DIR: transcripts land in `<configDir>/projects/<encoded cwd>/`. */
  readonly configDir: string;
  /** The stand-in's URL; must be loopback. */
  readonly baseUrl: string;
  /** A private HOME (default: `<configDir>/home`), so nothing of the real user's setup leaks in. */
  readonly home?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Defaults to ensureClaudeCli(). */
  readonly binary?: string;
}

export interface ClaudeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`runClaude: ANTHROPIC_BASE_URL must be loopback, got ${baseUrl}`);
  }
}

/** Runs the CLI once, stdin closed, with an environment built from scratch (no inherited keys). */
export function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  assertLoopback(options.baseUrl);
  const binary = options.binary ?? ensureClaudeCli();
  const home = options.home ?? join(options.configDir, 'home');
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    CLAUDE_CONFIG_DIR: options.configDir,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-offline-0000000000000000',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    // stdin must be closed: `claude -p` also reads standard input and would wait for it.
    const child = spawn(binary, options.args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
