// The resident reader for this window's terminals (contracts/resident.ts): a `ctxlens resident`
// child process, started with the extension's own runtime, whose socket new terminals are told of
// (CONTEXT_LENS_RESIDENT) once it serves. A person's `ctxlens inspect` or `sessions` there is answered by it in
// about the time Node takes to start; everything else, and every terminal outside VS Code, runs as
// before. A separate process, not the extension host: a 100 MB transcript read there would stall
// the host, and a command that fails takes nothing else down. It ends with the window (its
// standard input closes), and a reader that stopped only means the commands run on their own again.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { RESIDENT_ENV, residentSocketPath } from '../contracts/resident';
import { Disposables } from './disposables';
import type { SettingsWatcher } from './settings';
import type { TerminalEnvironment } from './terminalEnvironment';

/** After activation, before the reader is started. */
const START_DELAY_MS = 2000;
/** How long a stopping reader gets to remove its socket before it is killed. */
const STOP_GRACE_MS = 2000;

export class ResidentCli extends Disposables {
  private child: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private enabled = false;
  /** Settles when the reader stopped last has exited: a new one must not find its socket still answered. */
  private exited: Promise<unknown> = Promise.resolve();
  private readonly cli: string;
  /** Where the reader listens: the same for every start in this window, made on the first. */
  private socket: string | undefined;
  /** A folder of our own made for the socket (none of the usual places fits a socket's path): removed at the end. */
  private madeFolder: string | undefined;

  constructor(
    extensionUri: vscode.Uri,
    settings: SettingsWatcher,
    private readonly terminals: TerminalEnvironment,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    // A path of its own making (not vscode.Uri.joinPath): nothing of `vscode` is needed at run time, so this is unit-tested in node.
    this.cli = join(extensionUri.fsPath, 'dist', 'cli.js');
    this.onDispose(() => {
      this.disable();
      // The reader removes its socket and key as it stops; the folder is gone once it has.
      const folder = this.madeFolder;
      if (folder !== undefined) void this.exited.then(() => rmSync(folder, { recursive: true, force: true }));
    });
    // A Unix socket; Windows would need a named pipe (and has no `ctxlens` launcher yet either).
    if (process.platform === 'win32') return;
    // Started once the panel has had its first paint: starting a process costs the host a few
    // milliseconds, and nobody types in a terminal in the first seconds of a window.
    this.apply(settings.current.residentReader, START_DELAY_MS);
    this.own(settings.onDidChange((current) => this.apply(current.residentReader, 0)));
  }

  /** Turned on or off (`contextLens.terminal.residentReader`); on, it starts after `delayMs`. */
  private apply(on: boolean, delayMs: number): void {
    if (on === this.enabled) return;
    if (!on) {
      this.disable();
      this.log.info('resident reader turned off: ctxlens in terminals runs on its own');
      return;
    }
    this.enabled = true;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.exited.then(() => {
        if (this.enabled && this.child === undefined) this.start();
      });
    }, delayMs);
  }

  /** The socket's path; a fresh folder only this user can have made when the usual places are too long. */
  private socketPath(): string {
    this.socket ??= residentSocketPath(process.env, process.pid);
    if (this.socket === undefined) {
      // mkdtemp: a new folder (0700) of a name no one could have guessed and made first.
      this.madeFolder = mkdtempSync(join(tmpdir(), 'context-lens-'));
      this.socket = join(this.madeFolder, 'r.sock');
    }
    return this.socket;
  }

  private start(): void {
    const { cli } = this;
    let socket: string;
    try {
      socket = this.socketPath();
    } catch (error) {
      this.log.warn(`resident reader: no folder for its socket (${String(error)}); ctxlens in terminals runs on its own`);
      return;
    }
    // The extension host's own runtime runs the CLI: VS Code's Electron as Node, or code-server's Node.
    const electron = process.versions.electron !== undefined ? { ELECTRON_RUN_AS_NODE: '1' } : {};
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [cli, 'resident', '--socket', socket], { env: { ...process.env, ...electron }, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      this.log.warn(`resident reader: not started (${String(error)}); ctxlens in terminals runs on its own`);
      return;
    }
    this.child = child;
    // Its end of the pipe may be gone when the window closes: nothing to report.
    child.stdin?.on('error', () => undefined);
    child.stdout?.setEncoding('utf8').once('data', (text: string) => {
      if (this.child !== child || !text.startsWith('Serving on')) return;
      this.log.info(`resident reader on ${socket} (pid ${child.pid ?? '?'})`);
      // Named to the terminals only now that it serves (and taken back when it stops): a terminal
      // is never told of a socket that someone else could be listening on meanwhile. Terminals
      // VS Code restored before this are marked stale and get it when relaunched.
      this.terminals.set(RESIDENT_ENV, socket, "Context Lens: ctxlens inspect and sessions in this terminal are answered by the extension's resident reader.");
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) if (line.trim() !== '') this.log.info(line.trim());
    });
    child.on('error', (error) => this.log.warn(`resident reader: ${error.message}; ctxlens in terminals runs on its own`));
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.terminals.delete(RESIDENT_ENV);
      this.child = undefined;
      if (this.enabled) this.log.warn(`resident reader stopped (${signal ?? `exit ${code}`}); ctxlens in terminals runs on its own`);
    });
  }

  /** Closing its standard input asks it to stop (it removes its socket); a kill follows if it does not. */
  private disable(): void {
    this.enabled = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.terminals.delete(RESIDENT_ENV);
    const child = this.child;
    this.child = undefined;
    if (child === undefined) return;
    this.exited = new Promise((settle) => child.once('exit', settle));
    child.stdin?.end();
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    kill.unref();
    child.once('exit', () => clearTimeout(kill));
  }
}
