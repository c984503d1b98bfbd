// Notices a new session in a project folder (the user ran `claude` again, or resumed a fork), so the
// host can offer to follow it. Only new files count: several live sessions in one folder would
// otherwise make "newest by mtime" flip back and forth.
import { EventEmitter } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic, SessionInfo } from '../types';
import { readSessionInfo } from './listing';
import { ChangeSignal, SerialRunner } from './watch';

export interface SessionSwitch {
  session: SessionInfo;
  /** The transcript that was current before, if any. */
  previousPath: string | null;
}

export interface ProjectWatcherOptions {
  /** The transcript being followed now. */
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
  private readonly runner = new SerialRunner(() => this.check());
  private disposed = false;

  constructor(readonly projectDir: string, private readonly options: ProjectWatcherOptions = {}) {
    super();
    this.current = options.current ?? null;
  }

  async start(): Promise<void> {
    this.known = new Set(await this.sessionFiles());
    if (this.disposed) return;
    this.signal = new ChangeSignal(this.projectDir, { debounceMs: this.options.debounceMs ?? 100, pollMs: this.options.pollMs ?? 2000 }, () => void this.runner.request());
  }

  refresh(): Promise<void> {
    return this.runner.request();
  }

  dispose(): void {
    this.disposed = true;
    this.signal?.dispose();
    this.signal = null;
    this.removeAllListeners();
  }

  /** Top-level `*.jsonl` files that have content (Claude Code creates them on first write). */
  private async sessionFiles(): Promise<string[]> {
    const names = await readdir(this.projectDir).catch(() => [] as string[]);
    const files: string[] = [];
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      const path = join(this.projectDir, name);
      const size = await stat(path).then((stats) => stats.size, () => 0);
      if (size > 0) files.push(path);
    }
    return files;
  }

  private async check(): Promise<void> {
    if (this.disposed) return;
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
