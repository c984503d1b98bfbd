// Compact… and Preview Compaction: run the engine on the live context (cancellable, with progress in
// a notification and in the panel), show the preview, and act on it: open the diff, apply it as a
// fork the agent can resume (the source transcript is only read, and must not have moved on), or cancel.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { FileSystemArchive, pruneArchive, StagedArchive } from '../../archive/fileArchive';
import { redactSecrets, type CompactionResult } from '../../engine';
import type { Choices, ForkView, ItemDetail, Preview } from '../../protocol/messages';
import { adapterOf } from '../../sessions/agents';
import type { AgentId } from '../../sessions/types';
import type { LiveSnapshot } from '../context/liveSnapshot';
import type { HistoryStore } from '../history/HistoryStore';
import type { PanelHub } from '../panel/PanelHub';
import type { PreviewActionMessage } from '../panel/WebviewConnection';
import type { SettingsWatcher } from '../settings';
import type { ApiKeyStore } from './ApiKeyStore';
import type { DiffDocuments } from './DiffDocuments';
import { diffDocuments, previewItemDetail } from './preview';
import { runCompaction } from './run';
import { sessionMovedOn } from './stale';
import { executableOnPath } from '../connect/launcher';
import { summarizerOf } from './summarizer';

/** Where Anthropic explains installing Claude Code. */
const INSTALL_GUIDES: Record<AgentId, string> = {
  'claude-code': 'https://docs.anthropic.com/en/docs/claude-code/setup',
  codex: 'https://github.com/openai/codex#installing-and-running-codex-cli',
};

/** A path as one POSIX shell word. */
const shellQuote = (path: string): string => `'${path.replace(/'/g, `'\\''`)}'`;

export interface FlowDeps {
  readonly hub: PanelHub;
  readonly settings: SettingsWatcher;
  readonly apiKey: ApiKeyStore;
  readonly history: HistoryStore;
  readonly diffs: DiffDocuments;
  readonly snapshot: () => LiveSnapshot | null;
  /** The person's keep/drop/pin choices for the followed session, and their end once applied. */
  readonly choices: () => Choices;
  readonly clearChoices: (sessionPath: string) => Promise<void>;
  readonly revealPanel: () => void;
  readonly archiveFolder: string;
  readonly log: vscode.LogOutputChannel;
}

/** The preview on screen and what produced it (apply needs the exact context the result indexes). */
interface Shown {
  preview: Preview;
  snapshot: LiveSnapshot;
  result: CompactionResult;
  /** The pre-compaction context, written to disk only when the preview is applied. */
  archive: StagedArchive;
}

export class CompactionFlow implements vscode.Disposable {
  private shown: Shown | null = null;
  private running: AbortController | null = null;
  /** Apply re-reads the session before writing: a second click meanwhile must not write a second fork. */
  private applying = false;

  constructor(private readonly deps: FlowDeps) {}

  /**
   * Compact… asks for focus instructions first (like `/compact <instructions>`), pre-filled with
   * `suggestedFocus`; Preview takes it as it is, so it shows what the region map shows.
   */
  async run(askFocus: boolean, suggestedFocus = this.deps.settings.current.compactionFocus): Promise<void> {
    if (this.running) {
      void vscode.window.showInformationMessage('Context Lens: a compaction is already running.');
      return;
    }
    const snapshot = this.deps.snapshot();
    if (snapshot === null || snapshot.context.items.length === 0) {
      void vscode.window.showWarningMessage('Context Lens: no live context to compact yet — start `claude` in this folder, or open a transcript file.');
      return;
    }
    let focus = suggestedFocus.trim();
    if (askFocus) {
      const input = await vscode.window.showInputBox({
        title: 'Context Lens: Compact…',
        prompt: 'What the compaction should keep (like /compact <instructions>). Empty = no focus.',
        placeHolder: 'Focus instructions — e.g. keep the retry decision',
        value: suggestedFocus,
        ignoreFocusOut: true,
      });
      if (input === undefined) return;
      focus = input.trim();
    }
    // Stored in the preview, the history, the fork and the archive: a pasted key goes no further.
    focus = redactSecrets(focus);
    const settings = this.deps.settings.current;
    const chosen = summarizerOf(settings.summarizer, await this.deps.apiKey.get(), snapshot.live.session.cwd ?? undefined);
    if (!chosen.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${chosen.error}`, 'Set API Key').then((choice) => choice && vscode.commands.executeCommand('contextLens.setApiKey'));
      return;
    }
    const controller = new AbortController();
    this.running = controller;
    const message = `Compacting with the ${chosen.name} summarizer…`;
    this.deps.hub.updateProgress({ message, cancellable: true });
    const archive = new StagedArchive(new FileSystemArchive(this.deps.archiveFolder));
    try {
      const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Context Lens', cancellable: true }, (progress, token) => {
        progress.report({ message });
        token.onCancellationRequested(() => controller.abort());
        return runCompaction({ id: randomUUID(), focus, engine: settings.engine, summarizer: chosen, context: snapshot.context, archive, signal: controller.signal, choices: this.deps.choices() });
      });
      const { result } = outcome;
      if (outcome.cancelled) {
        this.deps.log.info('Compaction cancelled');
        void vscode.window.showInformationMessage('Context Lens: Compaction cancelled.');
        return;
      }
      const { preview } = outcome;
      this.deps.log.info(`Compaction${focus ? ` with focus "${redactSecrets(focus)}"` : ''}: ${redactSecrets(result.message)}${result.error ? ` (${redactSecrets(result.error)})` : ''}`);
      for (const warning of [preview.summaryFallback, preview.overflow]) if (warning) this.deps.log.warn(warning);
      this.shown = { preview, snapshot, result, archive };
      this.deps.hub.updatePreview(preview);
      this.deps.revealPanel();
    } finally {
      this.running = null;
      this.deps.hub.updateProgress(null);
    }
  }

  cancelProgress(): void {
    this.running?.abort();
  }

  /** While a preview is shown the map shows its items, so their details come from the same run. */
  itemDetail(id: number): ItemDetail | null {
    const shown = this.shown;
    return shown ? previewItemDetail(shown.snapshot.context, shown.result, id) : null;
  }

  async onAction({ previewId, action }: PreviewActionMessage): Promise<void> {
    const shown = this.shown;
    // A stale webview may still show an older preview: ignore its buttons.
    if (shown === null || shown.preview.id !== previewId) return;
    switch (action) {
      case 'openDiff':
        return this.openDiff(shown);
      case 'apply':
        if (this.applying) return;
        this.applying = true;
        return this.apply(shown).finally(() => (this.applying = false));
      case 'cancel':
        this.shown = null;
        this.deps.hub.updatePreview(null);
        return;
      case 'resumeInTerminal':
        if (shown.preview.applied) this.resumeInTerminal(shown.preview.applied, shown.snapshot);
        return;
      case 'copyResumeCommand':
        if (shown.preview.applied) await vscode.env.clipboard.writeText(shown.preview.applied.resumeCommand);
        return;
    }
  }

  private async openDiff({ preview, snapshot, result }: Shown): Promise<void> {
    const documents = diffDocuments(snapshot.context, result);
    if (documents === null) return void vscode.window.showErrorMessage('Context Lens: this preview does not line up with its context — run Compact… again.');
    await this.deps.diffs.show(preview.id, documents.before, documents.after, `Context Lens: before ↔ after${preview.focus ? ` (${preview.focus})` : ''}`);
  }

  private async apply(shown: Shown): Promise<void> {
    const { preview, snapshot, result } = shown;
    if (preview.applied) return;
    const moved = await sessionMovedOn(snapshot.live);
    if (!moved.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${moved.error.message}`);
      return;
    }
    if (moved.value) {
      this.deps.log.warn(`Apply of preview ${preview.id} stopped: ${snapshot.live.session.path} moved on since the preview`);
      const again = 'Compact… Again';
      void vscode.window.showWarningMessage('Context Lens: The session moved on since this preview — run Compact… again.', again).then((choice) => {
        if (choice === again) void this.run(true, preview.focus);
      });
      return;
    }
    // Archived before the fork that drops anything is written; a preview left unapplied writes nothing.
    if (result.archive) {
      const committed = await shown.archive.commit(result.archive.id, this.deps.settings.current.archive);
      if (!committed.ok) {
        void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${committed.error}`);
        return;
      }
      this.deps.log.info(`Archived the context before the compaction as ${committed.value.location}`);
    }
    const adapter = adapterOf(snapshot.live.session.agent);
    // A fork inherits its source's title (pickers say "fork of …"): no suffix piling up over forks of forks.
    const written = await adapter.writeFork({ live: snapshot.live, context: snapshot.context, result, focus: preview.focus || null, title: snapshot.live.session.title });
    if (!written.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${written.error.message}`);
      return;
    }
    const fork: ForkView = written.value;
    const applied = { ...preview, applied: fork };
    this.shown = { ...shown, preview: applied };
    this.deps.hub.updatePreview(applied);
    await this.deps.history.add([snapshot.live.session.path, fork.path], {
      id: preview.id,
      at: new Date().toISOString(),
      focus: preview.focus || null,
      beforeTokens: preview.beforeTokens,
      afterTokens: preview.afterTokens,
      savingsPct: preview.savingsPct,
      summary: preview.summary,
      verification: preview.verification,
      fork,
    });
    this.deps.log.info(`Applied the compaction as session ${fork.sessionId} (${fork.path})`);
    await this.deps.clearChoices(snapshot.live.session.path);
    const choice = await vscode.window.showInformationMessage(`Context Lens: compacted session written — resume it with \`${fork.resumeCommand}\`.`, 'Resume in Terminal', 'Copy resume command');
    if (choice === 'Resume in Terminal') this.resumeInTerminal(fork, snapshot);
    else if (choice === 'Copy resume command') await vscode.env.clipboard.writeText(fork.resumeCommand);
  }

  /** Context Lens: Prune Archive — the caps from the settings, applied now. */
  async pruneArchive(): Promise<void> {
    const caps = this.deps.settings.current.archive;
    const pruned = await pruneArchive(this.deps.archiveFolder, caps);
    if (!pruned.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${pruned.error}`);
      return;
    }
    const { removed, keptEntries, keptBytes } = pruned.value;
    const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
    const message = `Archive pruned: removed ${removed.length} file(s) (${megabytes(removed.reduce((sum, file) => sum + file.bytes, 0))}), kept ${keptEntries} (${megabytes(keptBytes)}).`;
    this.deps.log.info(`${message} Caps: ${caps.maxMegabytes} MB, ${caps.maxAgeDays} days; folder ${this.deps.archiveFolder}`);
    void vscode.window.showInformationMessage(`Context Lens: ${message}`);
  }

  private resumeInTerminal(fork: ForkView, snapshot: LiveSnapshot): void {
    const adapter = adapterOf(snapshot.live.session.agent);
    // Claude Code's binary can be set (for the claude -p summarizer too); other agents' are on PATH.
    const configured = adapter.id === 'claude-code' ? this.deps.settings.current.summarizer.claudeCliPath : '';
    if (configured === '' && executableOnPath(adapter.command, process.env.PATH ?? '', process.platform) === null) {
      // A terminal would only say "command not found": say what is missing and how to get it.
      const copy = 'Copy resume command';
      const guide = 'Open Install Guide';
      void vscode.window
        .showErrorMessage(
          `Context Lens: ${adapter.name}'s \`${adapter.command}\` command is not on PATH, so the fork cannot be resumed here. Install it with \`npm install -g ${adapter.installPackage}\`${adapter.id === 'claude-code' ? ' (or set contextLens.summarizer.claudeCliPath)' : ''}, then run \`${fork.resumeCommand}\` in ${snapshot.live.session.cwd ?? 'the session\'s folder'}.`,
          copy,
          guide,
        )
        .then((choice) => {
          if (choice === copy) void vscode.env.clipboard.writeText(fork.resumeCommand);
          else if (choice === guide) void vscode.env.openExternal(vscode.Uri.parse(INSTALL_GUIDES[adapter.id]));
        });
      return;
    }
    // `claude --resume` finds sessions by the folder it runs in: the session's own cwd.
    const cwd = snapshot.live.session.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const terminal = vscode.window.createTerminal({ name: `${adapter.name} (compacted)`, ...(cwd ? { cwd } : {}) });
    terminal.show();
    terminal.sendText(configured === '' ? fork.resumeCommand : fork.resumeCommand.replace(/^claude\b/, shellQuote(configured)));
  }

  dispose(): void {
    this.running?.abort();
  }
}
