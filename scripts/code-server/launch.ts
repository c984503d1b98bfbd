// Starts code-server on a loopback port with a throwaway profile (workspace trust off, no welcome
// page, AI features off) and the built extension installed, and stops it again.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureCodeServer } from './install';
import { portProblem } from './port';

export interface LaunchOptions {
  readonly extensionRoot: string;
  readonly workspace: string;
  readonly port?: number;
  readonly theme?: string;
  /** Extra settings for the throwaway profile. */
  readonly settings?: Record<string, unknown>;
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: (line: string) => void;
}

export interface RunningCodeServer {
  readonly url: string;
  readonly profileDir: string;
  /** code-server's process id (undefined if it never started). */
  readonly pid: number | undefined;
  /** Settles with its exit code or signal when it ends, whoever ended it. */
  readonly exited: Promise<number | string | null>;
  /** Everything code-server printed, for diagnostics when a test fails. */
  output(): string;
  stop(): Promise<void>;
}

export const PROFILE_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'window.restoreWindows': 'none',
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
  'git.enabled': false,
};

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** The packaged extension (`npm run package`) a person would install. */
export function vsixPath(extensionRoot: string): string {
  const { version } = JSON.parse(readFileSync(join(extensionRoot, 'package.json'), 'utf8')) as { version: string };
  return join(extensionRoot, 'dist-vsix', `context-lens-${version}.vsix`);
}

/**
 * Installs the .vsix the way a person does (`--install-extension`), not by linking or copying the
 * build: VS Code then knows the extension by its installed files, so notifications and logs name
 * it (a linked build's real paths lie outside its folder and show as "Null Extension Description").
 */
function installExtension(install: { node: string; entry: string }, vsix: string, userDataDir: string, extensionsDir: string): void {
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` first`);
  const result = spawnSync(install.node, [install.entry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/**
 * Ready when this child, still running, has said it listens on the port and the URL answers. The
 * URL alone is not enough: another code-server on the port answers it while ours dies of
 * EADDRINUSE.
 */
async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const listening = `HTTP server listening on ${url}`;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `code-server exited (${child.exitCode ?? child.signalCode}) before it was ready${/EADDRINUSE/.test(output()) ? `: ${url} is taken by another program` : ''}`,
      );
    if (output().includes(listening)) {
      try {
        const response = await fetch(`${url}/healthz`);
        if (response.ok && child.exitCode === null) return;
      } catch {
        // not answering yet
      }
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms`);
}

export async function launchCodeServer(options: LaunchOptions): Promise<RunningCodeServer> {
  const log = options.log ?? ((line: string) => console.error(line));
  const install = ensureCodeServer(log);
  const port = options.port ?? (await freePort());
  if (options.port !== undefined) {
    const taken = await portProblem(options.port, freePort);
    if (taken !== null) throw new Error(taken);
  }
  const profileDir = mkdtempSync(join(tmpdir(), 'context-lens-profile-'));
  const removeProfile = () => rmSync(profileDir, { recursive: true, force: true });
  const userDataDir = join(profileDir, 'user-data');
  const extensionsDir = join(profileDir, 'extensions');
  try {
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(
      join(userDataDir, 'User', 'settings.json'),
      JSON.stringify({ ...PROFILE_SETTINGS, ...(options.theme ? { 'workbench.colorTheme': options.theme } : {}), ...options.settings }, null, 2),
    );
    installExtension(install, vsixPath(resolve(options.extensionRoot)), userDataDir, extensionsDir);
  } catch (error) {
    removeProfile();
    throw error;
  }

  const url = `http://127.0.0.1:${port}`;
  const args = [
    install.entry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    resolve(options.workspace),
  ];
  let output = '';
  const child = spawn(install.node, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // However it ends (stopped, crashed, killed with its parent's group), its profile goes with it.
  child.once('exit', removeProfile);
  child.once('error', removeProfile);
  const exited = new Promise<number | string | null>((done) => child.once('exit', (code, signal) => done(code ?? signal)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    removeProfile();
  };
  try {
    await waitForHealth(url, child, () => output, 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- code-server output ---\n${output}`, { cause: error });
  }
  return { url, profileDir, pid: child.pid, exited, output: () => output, stop };
}
