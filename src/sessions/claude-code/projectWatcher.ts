// Notices a new session in a project folder (the user ran `claude` again, or resumed a fork), so the
// host can offer to follow it. Only new files count: several live sessions in one folder would
// otherwise make "newest by mtime" flip back and forth. Without a current session it waits for the
// first one, in a folder that may not exist yet (VS Code opened before `claude` ever ran there).
import { EventEmitter } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Diagnostic, SessionInfo, SessionSwitch } from '../types';
import { readSessionInfo } from './listing';
import { ChangeSignal, SerialRunner } from '../common/watch';

export interface ProjectWatcherOptions {
  /**
   * The transcript being followed now. Without one the watcher waits for the first session:
   * transcripts already in the folder count as new.
   */
  current?: string;
  debounceMs?: number;
  pollMs?: number;
}

export interface ProjectWatcherEvents {
  sessionSwitched: [SessionSwitch];
  diagnostic: [Diagnostic];
}

export class ProjectWatcher extends EventEmitter<ProjectWatcherEvents> {
  private known = new Set<string>();
  private current: string | null;
  private signal: ChangeSignal | null = null;
  /** Where `signal` watches: the project folder, or its nearest existing ancestor until it exists. */
  private watched: WatchedFolder | null = null;
  private readonly runner = new SerialRunner(() => this.check());
  private disposed = false;

  constructor(
    readonly projectDir: string,
    private readonly options: ProjectWatcherOptions = {},
  ) {
    super();
    this.current = options.current ?? null;
  }

  /** Attaches the watch; while waiting for a first session, emits at once for one already there. */
  async start(): Promise<void> {
    if (this.current !== null) this.known = new Set(await this.sessionFiles());
    await this.runner.request();
  }

  refresh(): Promise<void> {
    return this.runner.request();
  }

  dispose(): void {
    this.disposed = true;
    this.signal?.dispose();
    this.signal = null;
    this.watched = null;
    this.removeAllListeners();
  }

  /**
   * Moves the watch down as the missing folders appear (and back up if they are removed): fs.watch
   * needs an existing folder, and a new inode means the old watch went stale.
   */
  private async retarget(): Promise<void> {
    const target = await nearestExistingFolder(this.projectDir);
    if (this.disposed || (this.watched?.path === target.path && this.watched.ino === target.ino)) return;
    this.signal?.dispose();
    this.watched = target;
    this.signal = new ChangeSignal(
      target.path,
      { debounceMs: this.options.debounceMs ?? 100, pollMs: this.options.pollMs ?? 2000 },
      () => void this.runner.request(),
    );
    // A folder created below before the watch attached sends no event: look once more.
    if (target.path !== this.projectDir) this.signal.schedule();
  }

  /** Top-level `*.jsonl` files that have content (Claude Code creates them on first write). */
  private async sessionFiles(): Promise<string[]> {
    const names = await readdir(this.projectDir).catch(() => [] as string[]);
    const files: string[] = [];
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      const path = join(this.projectDir, name);
      const size = await stat(path).then(
        (stats) => stats.size,
        () => 0,
      );
      if (size > 0) files.push(path);
    }
    return files;
  }

  private async check(): Promise<void> {
    if (this.disposed) return;
    await this.retarget();
    const files = await this.sessionFiles();
    const fresh = files.filter((path) => !this.known.has(path));
    for (const path of fresh) this.known.add(path);
    let newest: { info: SessionInfo } | null = null;
    for (const path of fresh) {
      const info = await readSessionInfo(path);
      if (!info.ok) this.emit('diagnostic', { severity: 'warning', code: info.error.code, message: info.error.message, path });
      else if (newest === null || info.value.lastActivityMs > newest.info.lastActivityMs) newest = { info: info.value };
    }
    if (newest === null || this.disposed) return;
    const previousPath = this.current;
    this.current = newest.info.path;
    this.emit('sessionSwitched', { session: newest.info, previousPath });
  }
}

interface WatchedFolder {
  path: string;
  ino: number;
}

/** `path` if it is a folder, else its closest ancestor that is (at worst the root). */
async function nearestExistingFolder(path: string): Promise<WatchedFolder> {
  for (let candidate = path; ; candidate = dirname(candidate)) {
    const stats = await stat(candidate).catch(() => null);
    if ((stats?.isDirectory() ?? false) || dirname(candidate) === candidate) return { path: candidate, ino: stats?.ino ?? 0 };
  }
}
