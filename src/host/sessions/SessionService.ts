// Which agent session the host shows, and its live fill. Follows the workspace's most recent
// session of any agent (Claude Code, Codex CLI) by default, switches when a newer one appears
// (unless the user picked one), and lets the user pick another session or any transcript file.
// With no session yet, it waits for any agent to write the workspace's first one.
import * as vscode from 'vscode';
import { AGENT_COMMANDS, AGENT_NAMES, AGENTS, adapterOf, identifyFile } from '../../sessions/agents';
import type { SessionHandle, SessionLocations, SessionWaiter } from '../../sessions/port';
import { openSession } from '../../sessions/handle/open';
import { findWorkspaceSession, listForks } from '../../sessions/handle/defaults';
import { lastActiveMs, type CompactionEvent, type Diagnostic, type FillSnapshot, type SessionInfo } from '../../sessions/types';
import type { Settings, SettingsWatcher } from '../settings';
import { pickerItems, type PickerItem } from './pickerItems';
import { subagentCosts } from './subagentCosts';
import { Disposables } from '../disposables';

export interface SessionView {
  readonly session: SessionInfo | null;
  /** What reads `session` (its live context, usage, calls): one per followed session, null with none. */
  readonly handle: SessionHandle | null;
  readonly fill: FillSnapshot | null;
  readonly compactions: readonly CompactionEvent[];
  readonly diagnostics: readonly Diagnostic[];
  /** Forks Context Lens wrote of this session (by Apply here, elsewhere, or the CLI), oldest first. */
  readonly forks: readonly SessionInfo[];
  /** True while we looked but found nothing for this workspace. */
  readonly searched: boolean;
}

const MAX_DIAGNOSTICS = 50;

export class SessionService extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<SessionView>());
  private follower: SessionHandle | null = null;
  /** Each agent watching for the workspace's first session, while there is none. */
  private waiting: SessionWaiter[] = [];
  /** Bumped by every lookup and every follow, so a slower, older lookup does not act. */
  private generation = 0;
  private view: SessionView = { session: null, handle: null, fill: null, compactions: [], diagnostics: [], forks: [], searched: false };
  /** The user chose this session explicitly: do not jump to newer ones. */
  private pinned = false;
  /** Settings the current lookup or follower was started with. */
  private followedWith: Settings;

  readonly onDidChange = this.changed.event;

  constructor(
    private readonly settings: SettingsWatcher,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.followedWith = settings.current;
    this.own(settings.onDidChange((next) => this.onSettings(next)));
    this.onDispose(() => {
      // A lookup still under way must not start a follower after this.
      this.generation++;
      this.stopWaiting();
      void this.follower?.dispose();
    });
  }

  get current(): SessionView {
    return this.view;
  }

  /** Finds the workspace's session and starts following it, or waits for one. */
  async start(): Promise<void> {
    const generation = ++this.generation;
    this.stopWaiting();
    this.followedWith = this.settings.current;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return this.update({ searched: true });
    const found = await this.newestWorkspaceSession(folder.uri.fsPath);
    if (generation !== this.generation) return;
    if (found) return this.follow(found, false);
    // A session of other config folders no longer belongs to this workspace.
    void this.follower?.dispose();
    this.follower = null;
    this.update({ session: null, handle: null, fill: null, compactions: [], diagnostics: [], forks: [], searched: true });
    await this.waitForSession(folder.uri.fsPath, generation);
  }

  /** The workspace's most recently active session of any agent, or null. */
  private async newestWorkspaceSession(workspacePath: string): Promise<SessionInfo | null> {
    const found = await Promise.all(
      AGENTS.map(async (adapter) => {
        const result = await findWorkspaceSession(adapter, workspacePath, this.locations(this.followedWith));
        if (!result.ok) this.log.warn(`Looking for ${adapter.name} sessions failed: ${result.error.message}`);
        return result.ok ? result.value : null;
      }),
    );
    return newest(found.filter((session): session is SessionInfo => session !== null));
  }

  /** Follows the first session any agent writes for the workspace, in folders that may not exist yet. */
  private async waitForSession(workspacePath: string, generation: number): Promise<void> {
    const waiters = await Promise.all(
      AGENTS.map(async (adapter) => {
        const waiter = await adapter.waitForSession(
          workspacePath,
          this.locations(this.followedWith),
          (session) => void this.follow(session, false),
          (diagnostic) => this.log.warn(`${diagnostic.path ?? adapter.name}: ${diagnostic.message}`),
        );
        return { adapter, waiter };
      }),
    );
    if (generation !== this.generation) {
      for (const { waiter } of waiters) waiter.dispose();
      return;
    }
    this.waiting = waiters.map(({ waiter }) => waiter);
    this.log.info(
      `No session found for ${workspacePath}; waiting for one: ${waiters.map(({ adapter, waiter }) => `${adapter.name} in ${waiter.where.join(', ')}`).join('; ')}`,
    );
  }

  private stopWaiting(): void {
    for (const watcher of this.waiting) watcher.dispose();
    this.waiting = [];
  }

  async selectSession(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const listed = await this.listAll(folder);
    const everywhere = folder && listed.length === 0 ? await this.listAll(undefined) : listed;
    const items = pickerItems(everywhere);
    if (items.length === 0) {
      const choice = await vscode.window.showInformationMessage(
        `No ${AGENT_NAMES} sessions found. Start ${AGENT_COMMANDS} in this folder, or open a session file.`,
        'Open Transcript File…',
      );
      if (choice) await this.openTranscript();
      return;
    }
    const picked = await this.pick(items, everywhere);
    if (picked) await this.follow(picked.session, true);
  }

  /** The picker, shown at once; the subagents' costs fill in when their transcripts are read. */
  private pick(items: PickerItem[], sessions: readonly SessionInfo[]): Promise<PickerItem | undefined> {
    const quickPick = vscode.window.createQuickPick<PickerItem>();
    Object.assign(quickPick, {
      title: 'Context Lens: Select Session',
      placeholder: 'Sessions, most recent first (subagents under their session, with their cost)',
      matchOnDescription: true,
      matchOnDetail: true,
      items,
    });
    let open = true;
    if (sessions.some((session) => session.isSidechain)) {
      quickPick.busy = true;
      void subagentCosts(this.settings.current.prices, sessions)
        .then((costs) => {
          if (!open || costs.size === 0) return;
          // The row the person is on stays the active one.
          const active = quickPick.activeItems[0]?.session.path;
          const priced = pickerItems(sessions, Date.now(), costs);
          quickPick.items = priced;
          const again = priced.find((item) => item.session.path === active);
          if (again) quickPick.activeItems = [again];
        })
        .catch((error: unknown) => this.log.warn(`subagent costs: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          if (open) quickPick.busy = false;
        });
    }
    return new Promise((resolve) => {
      quickPick.onDidAccept(() => {
        resolve(quickPick.selectedItems[0]);
        quickPick.hide();
      });
      quickPick.onDidHide(() => {
        open = false;
        resolve(undefined);
        quickPick.dispose();
      });
      quickPick.show();
    });
  }

  async openTranscript(): Promise<void> {
    const uris = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Agent transcripts': ['jsonl'], 'All files': ['*'] },
      title: 'Open Transcript File',
    });
    const uri = uris?.[0];
    if (!uri) return;
    const told = await identifyFile(uri.fsPath);
    if (told.adapter === undefined) {
      void vscode.window.showErrorMessage(`Context Lens: ${told.unrecognised}.`);
      return;
    }
    const info = await told.adapter.readSessionInfo(uri.fsPath);
    if (!info.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${info.error.message}`);
      return;
    }
    await this.follow(info.value, true);
  }

  private async follow(session: SessionInfo, pinned: boolean): Promise<void> {
    this.generation++;
    this.stopWaiting();
    void this.follower?.dispose();
    this.pinned = pinned;
    this.followedWith = this.settings.current;
    const follower = openSession(adapterOf(session.agent), session, { windowOverride: this.settings.current.windowTokensOverride });
    this.follower = follower;
    this.update({ session, handle: follower, fill: null, compactions: [], diagnostics: [], forks: [], searched: true });
    void this.findForks(follower, this.generation);
    follower.on('contextChanged', (change) => {
      if (this.follower === follower) this.update({ fill: change.fill });
    });
    follower.on('compacted', (event) => {
      if (this.follower !== follower) return;
      this.log.info(`The agent compacted (${event.trigger}): ${event.preTokens ?? '?'} → ${event.postTokens ?? '?'} tokens`);
      this.update({ compactions: [...this.view.compactions, event] });
    });
    follower.on('diagnostic', (diagnostic) => {
      if (this.follower !== follower) return;
      this.log.warn(`${session.path}${diagnostic.line ? `:${diagnostic.line}` : ''}: ${diagnostic.message}`);
      this.update({ diagnostics: [...this.view.diagnostics, diagnostic].slice(-MAX_DIAGNOSTICS) });
    });
    follower.on('sessionSwitched', (change) => {
      if (this.follower !== follower || this.pinned) return;
      this.log.info(`Following the newer session ${change.session.id}`);
      void this.follow(change.session, false);
    });
    this.log.info(`Following ${session.path}`);
    // Callers start this without waiting (a newer session, a changed setting): a failure is said here.
    try {
      await follower.follow();
    } catch (error) {
      this.log.warn(`Following ${session.path} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async findForks(handle: SessionHandle, generation: number): Promise<void> {
    const forks = await listForks(handle.adapter, handle.session);
    if (generation === this.generation && forks.length > 0) this.update({ forks });
  }

  /** Every agent's sessions (of one workspace folder when given), newest first; failures are logged. */
  private async listAll(workspacePath: string | undefined): Promise<SessionInfo[]> {
    const lists = await Promise.all(
      AGENTS.map(async (adapter) => {
        const listed = await adapter.listSessions(this.locations(this.settings.current), workspacePath);
        if (!listed.ok) this.log.warn(`Listing ${adapter.name} sessions failed: ${listed.error.message}`);
        return listed.ok ? listed.value : [];
      }),
    );
    return lists.flat().sort((a, b) => lastActiveMs(b) - lastActiveMs(a));
  }

  private onSettings(next: Settings): void {
    const before = this.followedWith;
    const session = this.view.session;
    const dirsChanged = JSON.stringify(before.sessionHomes) !== JSON.stringify(next.sessionHomes);
    // Other folders may hold a newer session for this workspace: look again unless the user chose one.
    if (dirsChanged && !this.pinned) void this.start();
    // The window override changes every fill figure: read the session again with it.
    else if (session && next.windowTokensOverride !== before.windowTokensOverride) void this.follow(session, this.pinned);
  }

  private locations(settings: Settings): SessionLocations {
    return { homes: settings.sessionHomes };
  }

  private update(patch: Partial<SessionView>): void {
    this.view = { ...this.view, ...patch };
    this.changed.fire(this.view);
  }
}

function newest(sessions: readonly SessionInfo[]): SessionInfo | null {
  return sessions.reduce<SessionInfo | null>((best, session) => (best === null || lastActiveMs(session) > lastActiveMs(best) ? session : best), null);
}
