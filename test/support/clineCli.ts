// The real Cline CLI (`cline`, the SDK build), pinned, installed once into the tool cache (never into
// the project's node_modules), and run offline against the loopback chat-completions stand-in with
// a private HOME (its ~/.cline/data is where it writes sessions) and the provider written into its
// settings as `cline auth --provider openai …` writes it. The local session backend is forced
// (CLINE_SESSION_BACKEND_MODE=local) and the hub its terminal UI starts gets a port of its own,
// ended after the run. `cline --id <id>` resumes only in its terminal UI: `resumeInTerminal` drives
// it in a pseudo-terminal (python3's pty module), types one prompt, and ends it once answered.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cacheRoot, installIntoCache } from '../../scripts/cache';
import { runCli, type CliRun } from './cliRun';

export const CLINE_VERSION = '3.0.65';
export const CLINE_MODEL = 'fake-model';
/** The Bun-compiled binary is ~150 MB; anything this big is not a placeholder or a torn download. */
const MIN_BINARY_BYTES = 10_000_000;

function binaryIn(folder: string): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return join(folder, 'node_modules', '@cline', `cli-${os}-${process.arch}`, 'bin', process.platform === 'win32' ? 'cline.exe' : 'cline');
}

const isInstalled = (binary: string): boolean => existsSync(binary) && statSync(binary).size > MIN_BINARY_BYTES;

/** Path of the pinned native `cline` binary, installing `cline@<version>` into the tool cache first if needed. */
export function ensureClineCli(log: (line: string) => void = (line) => console.error(line)): string {
  const folder = join(cacheRoot(), `cline-${CLINE_VERSION}`);
  installIntoCache({ folder, spec: `cline@${CLINE_VERSION}`, isInstalled: (root) => isInstalled(binaryIn(root)), log });
  return binaryIn(folder);
}

/** The SDK's data folder of a run in `root`. */
export const clineDataDir = (root: string): string => join(root, 'home', '.cline', 'data');

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`cline: the provider must be loopback, got ${baseUrl}`);
}

/** The provider settings `cline auth --provider openai --apikey x --modelid fake-model --baseurl <url>/v1` writes. */
export function configureClineProvider(root: string, baseUrl: string): void {
  assertLoopback(baseUrl);
  const folder = join(clineDataDir(root), 'settings');
  mkdirSync(folder, { recursive: true });
  const settings = { provider: 'openai-compatible', apiKey: 'x', model: CLINE_MODEL, baseUrl: `${baseUrl.replace(/\/$/, '')}/v1` };
  writeFileSync(
    join(folder, 'providers.json'),
    JSON.stringify(
      {
        version: 1,
        lastUsedProvider: 'openai-compatible',
        modes: {},
        providers: { 'openai-compatible': { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' } },
      },
      null,
      2,
    ),
  );
}

/** A free loopback port for the hub, so runs never share Cline's fixed default (25463). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function clineEnv(root: string, hubPort: number, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const folder = (name: string): string => {
    const path = join(root, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    HOME: folder('home'),
    XDG_CONFIG_HOME: folder('config'),
    XDG_CACHE_HOME: folder('cache'),
    TMPDIR: folder('tmp'),
    CLINE_SESSION_BACKEND_MODE: 'local',
    CLINE_HUB_PORT: String(hubPort),
    DO_NOT_TRACK: '1',
    ...extra,
  };
}

/** Ends the hub a terminal-UI run started on `port` (found by its own port: no other process is touched). */
export function endHub(port: number): void {
  if (process.platform !== 'linux') return;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let command: string[];
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = command.indexOf('--port');
    if (command.includes('--cline-hub-daemon') && at >= 0 && command[at + 1] === String(port)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

export interface RunClineOptions {
  readonly root: string;
  readonly cwd: string;
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

/** `cline --json <prompt>` once (auto-approve, no terminal UI): one task run to its end. */
export async function runClineTask(prompt: string, options: RunClineOptions): Promise<CliRun> {
  configureClineProvider(options.root, options.baseUrl);
  const port = await freePort();
  try {
    return await runCli(ensureClineCli(), ['--json', prompt], { cwd: options.cwd, env: clineEnv(options.root, port), timeoutMs: options.timeoutMs ?? 60_000 });
  } finally {
    endHub(port);
  }
}

/** Drives a program in a pseudo-terminal: waits for its screen, types the prompt and Enter, waits `answerMs`, then ends its process group. */
const PTY_DRIVER = `
import os, pty, select, signal, sys, time
prompt, settle, answer = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[4], sys.argv[4:])
screen = []
def pump(seconds, until=None):
    end = time.time() + seconds
    while time.time() < end:
        if until is not None and until in b"".join(screen)[-20000:]:
            return True
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                screen.append(os.read(fd, 65536))
            except OSError:
                return False
    return False
# The input box is drawn once the session is loaded; keys typed before it are lost.
pump(30, b"Ask anything")
pump(settle)
for char in prompt:
    os.write(fd, char.encode())
    pump(0.02)
pump(0.5)
os.write(fd, b"\\r")
pump(answer)
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.killpg(pid, sig)
    except OSError:
        pass
    pump(0.3)
sys.stdout.write(b"".join(screen).decode("utf8", "replace")[-4000:])
`;

/** `cline --id <id>` in its terminal UI, one prompt typed, ended after `answerMs`. */
export async function resumeInTerminal(id: string, prompt: string, options: RunClineOptions & { settleMs?: number; answerMs?: number }): Promise<CliRun> {
  configureClineProvider(options.root, options.baseUrl);
  const port = await freePort();
  try {
    const seconds = (ms: number): string => String(ms / 1000);
    return await runCli(
      'python3',
      ['-c', PTY_DRIVER, prompt, seconds(options.settleMs ?? 2000), seconds(options.answerMs ?? 5000), ensureClineCli(), '--id', id],
      { cwd: options.cwd, env: clineEnv(options.root, port), timeoutMs: options.timeoutMs ?? 60_000 },
    );
  } finally {
    endHub(port);
  }
}
