// Compact… and Preview Compaction: run the engine on the live context (cancellable, with progress in
// a notification and in the panel), show the preview, and act on it: open the diff, edit its summary,
// refresh it, apply it as a fork the agent can resume (the source transcript is only read, and must
// not have moved on), or cancel. Which preview is shown, and whether it may be applied, is
// PreviewSession's: this is its VS Code side (input box, notifications, the fork on disk).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { FileSystemArchive, pruneArchive, StagedArchive } from '../../archive/fileArchive';
import { redactSecrets } from '../../engine';
import type { Choices, ForkView, ItemDetail, Preview } from '../../protocol/messages';
import type { StateStorage } from '../context/choices';
import { withBreakEven } from '../context/costs';
import { AGENT_COMMANDS } from '../../sessions/agents';
import type { LiveSnapshot } from '../context/liveSnapshot';
import type { HistoryStore } from '../history/HistoryStore';
import type { PanelHub } from '../panel/PanelHub';
import type { PreviewActionMessage } from '../panel/WebviewConnection';
import type { SettingsWatcher } from '../settings';
import type { ApiKeyStore } from './ApiKeyStore';
import type { DiffDocuments, DiffPair } from './DiffDocuments';
import { diffDocuments, previewItemDetail } from './preview';
import { FocusMemory } from './focusMemory';
import { PreviewSession, type Computed, type PreviewRequest, type Shown } from './PreviewSession';
import type { PreviewInputs } from './previewInputs';
import { resumeInTerminal } from './resumeInTerminal';
import { runCompaction } from './run';
import { sessionMovedOn } from './stale';
import { summarizerOf } from './summarizer';
import { Disposables } from '../disposables';

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
  /** Fires when the live plan changed: new records, choices or settings (the preview is checked against them). */
  readonly planChanged: vscode.Event<unknown>;
  /** Where the last focus of each session is remembered. */
  readonly state: StateStorage;
  readonly revealPanel: () => void;
  readonly archiveFolder: string;
  readonly log: vscode.LogOutputChannel;
}

/**
 * How long a preview stays on screen before its diff documents are built and loaded: a burst of
 * keeps and drops recomputes the preview each time, and only the one that stays is worth loading.
 */
const DIFF_PREPARE_DELAY_MS = 300;

export class CompactionFlow extends Disposables {
  private readonly session: PreviewSession;
  /** The shown preview's diff documents, loaded into VS Code before anyone clicks Open in Diff Editor. */
  private diffPair: { previewId: string; pair: DiffPair } | null = null;
  private diffTimer: NodeJS.Timeout | undefined;
  private readonly focusMemory: FocusMemory;
  private running: AbortController | null = null;

  constructor(private readonly deps: FlowDeps) {
    super();
    this.session = new PreviewSession({
      inputs: () => this.inputs(),
      compute: (request, inputs, automatic) => this.compute(request, inputs, automatic),
      publish: (preview) => {
        deps.hub.updatePreview(withBreakEven(preview, deps.settings.current.prices, deps.snapshot()));
        this.prepareDiffSoon();
      },
    });
    this.focusMemory = new FocusMemory(deps.state);
    this.own(deps.planChanged(() => this.session.inputsChanged()));
    this.own(deps.settings.onDidChange(() => this.session.inputsChanged()));
    // A run still under way and a pending diff load stop with the window.
    this.onDispose(() => {
      clearTimeout(this.diffTimer);
      this.running?.abort();
    });
  }

  private inputs(): PreviewInputs | null {
    const snapshot = this.deps.snapshot();
    if (snapshot === null || snapshot.context.items.length === 0) return null;
    const { engine, summarizer } = this.deps.settings.current;
    return { snapshot, choices: this.deps.choices(), engine, summarizer };
  }

  /**
   * Compact… asks for focus instructions first (like `/compact <instructions>`), offering `suggestedFocus`,
   * else this session's last focus, else the standing one; Preview takes the standing focus as it is,
   * so it shows what the region map shows.
   */
  async run(askFocus: boolean, suggestedFocus?: string): Promise<void> {
    if (this.running) {
      void vscode.window.showInformationMessage('Context Lens: a compaction is already running.');
      return;
    }
    const sessionPath = this.deps.snapshot()?.live.session.path;
    const standing = this.deps.settings.current.compactionFocus;
    let focus = (suggestedFocus ?? (askFocus && sessionPath !== undefined ? this.focusMemory.get(sessionPath) : undefined) ?? standing).trim();
    if (askFocus) {
      const input = await vscode.window.showInputBox({
        title: 'Context Lens: Compact…',
        prompt: 'What the compaction should keep (like /compact <instructions>). Empty = no focus.',
        placeHolder: 'Focus instructions — e.g. keep the retry decision',
        value: focus,
        ignoreFocusOut: true,
      });
      if (input === undefined) return;
      focus = input.trim();
    }
    // Stored in the preview, the history, the fork and the archive: a pasted key goes no further.
    focus = redactSecrets(focus);
    if (askFocus && sessionPath !== undefined) await this.focusMemory.set(sessionPath, focus);
    const outcome = await this.session.show({ focus, summaryOverride: null });
    if (outcome === 'noContext')
      void vscode.window.showWarningMessage(`Context Lens: no live context to compact yet — start ${AGENT_COMMANDS} in this folder, or open a session file.`);
    else if (outcome === 'busy') void vscode.window.showInformationMessage('Context Lens: a compaction is already running.');
    else if (outcome === 'shown') this.deps.revealPanel();
  }

  /** One computation of a preview; `automatic` ones (a keep pressed in the map) show progress in the panel only. */
  private async compute(request: PreviewRequest, inputs: PreviewInputs, automatic: boolean): Promise<Computed | null> {
    const { focus, summaryOverride } = request;
    const { snapshot } = inputs;
    const chosen = summarizerOf(inputs.summarizer, await this.deps.apiKey.get(), snapshot.live.session.cwd ?? undefined);
    if (!chosen.ok) {
      void vscode.window
        .showErrorMessage(`Context Lens: ${chosen.error}`, 'Set API Key')
        .then((choice) => choice && vscode.commands.executeCommand('contextLens.setApiKey'));
      return null;
    }
    const controller = new AbortController();
    this.running = controller;
    const message =
      summaryOverride !== null
        ? 'Computing the preview with your summary…'
        : automatic
          ? 'Computing the preview again…'
          : `Compacting with the ${chosen.value.name} summarizer…`;
    this.deps.hub.updateProgress({ message, cancellable: true });
    const archive = new StagedArchive(new FileSystemArchive(this.deps.archiveFolder));
    const compute = () =>
      runCompaction({
        id: randomUUID(),
        focus,
        engine: inputs.engine,
        summarizer: chosen.value,
        context: snapshot.context,
        archive,
        signal: controller.signal,
        choices: inputs.choices,
        summaryOverride,
      });
    try {
      const outcome = automatic
        ? await compute()
        : await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Context Lens', cancellable: true }, (progress, token) => {
            progress.report({ message });
            token.onCancellationRequested(() => controller.abort());
            return compute();
          });
      const { result } = outcome;
      if (outcome.cancelled) {
        this.deps.log.info('Compaction cancelled');
        if (!automatic) void vscode.window.showInformationMessage('Context Lens: Compaction cancelled.');
        return null;
      }
      const { preview } = outcome;
      this.deps.log.info(
        `Compaction${focus ? ` with focus "${redactSecrets(focus)}"` : ''}${summaryOverride !== null ? ' with the summary edited by the person' : ''}: ${redactSecrets(result.message)}${result.error ? ` (${redactSecrets(result.error)})` : ''}`,
      );
      for (const warning of [preview.summaryFallback, preview.overflow]) if (warning) this.deps.log.warn(warning);
      return { preview, result, archive };
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
    const shown = this.session.shown;
    return shown ? previewItemDetail(shown.inputs.snapshot.context, shown.result, id) : null;
  }

  async onAction(message: PreviewActionMessage): Promise<void> {
    const shown = this.session.shown;
    // A stale webview may still show an older preview: ignore its buttons.
    if (shown === null || shown.preview.id !== message.previewId) return;
    const { previewId } = message;
    // The person's own summary: the preview is computed again with it, and verified.
    if (message.type === 'editSummary') {
      await this.session.editSummary(previewId, message.text);
      return;
    }
    switch (message.action) {
      case 'openDiff':
        return this.openDiff(shown);
      case 'apply':
        return this.apply(previewId);
      case 'refresh':
        await this.session.refresh(previewId);
        return;
      case 'revertSummary':
        await this.session.editSummary(previewId, null);
        return;
      case 'cancel':
        this.session.clear();
        return;
      case 'resumeInTerminal':
        if (shown.preview.applied) this.resumeInTerminal(shown.preview.applied, shown.inputs.snapshot);
        return;
      case 'copyResumeCommand':
        if (shown.preview.applied) await vscode.env.clipboard.writeText(shown.preview.applied.resumeCommand);
        return;
    }
  }

  private prepareDiffSoon(): void {
    clearTimeout(this.diffTimer);
    this.diffTimer = setTimeout(() => {
      const shown = this.session.shown;
      if (shown) this.diffPairOf(shown);
    }, DIFF_PREPARE_DELAY_MS);
  }

  /** The preview's diff documents, built once per preview; null when it does not line up with its context. */
  private diffPairOf({ preview, inputs, result }: Shown): DiffPair | null {
    if (this.diffPair?.previewId === preview.id) return this.diffPair.pair;
    const documents = diffDocuments(inputs.snapshot.context, result);
    if (documents === null) return null;
    this.diffPair = { previewId: preview.id, pair: this.deps.diffs.prepare('preview', preview.id, documents.before, documents.after) };
    return this.diffPair.pair;
  }

  private async openDiff(shown: Shown): Promise<void> {
    const pair = this.diffPairOf(shown);
    if (pair === null) return void vscode.window.showErrorMessage('Context Lens: this preview does not line up with its context — run Compact… again.');
    await this.deps.diffs.show(pair, `Context Lens: before ↔ after${shown.preview.focus ? ` (${shown.preview.focus})` : ''}`);
  }

  /** Writes the fork of exactly the preview shown, when it still matches its inputs (else says why not). */
  private async apply(previewId: string): Promise<void> {
    const grant = this.session.beginApply(previewId);
    if (!grant.ok) {
      if (grant.error) void vscode.window.showWarningMessage(`Context Lens: not applied: ${grant.error}`);
      return;
    }
    let applied: Preview | null = null;
    try {
      applied = await this.writeFork(grant.value);
    } finally {
      this.session.endApply(applied);
    }
    if (applied?.applied) await this.afterApply(grant.value, applied.applied);
  }

  /** The fork written and recorded, as the applied preview; null when it was not (the person was told why). */
  private async writeFork({ preview, inputs, result, archive }: Shown): Promise<Preview | null> {
    const { snapshot } = inputs;
    // The panel's snapshot trails the file by a debounce: the file itself must not have moved on.
    const moved = await sessionMovedOn(snapshot.adapter, snapshot.live);
    if (!moved.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${moved.error.message}`);
      return null;
    }
    if (moved.value) {
      this.deps.log.warn(`Apply of preview ${preview.id} stopped: ${snapshot.live.session.path} moved on since the preview`);
      const again = 'Compact… Again';
      void vscode.window.showWarningMessage('Context Lens: The session moved on since this preview — run Compact… again.', again).then((choice) => {
        if (choice === again) void this.run(true, preview.focus);
      });
      return null;
    }
    // Archived before the fork that drops anything is written; a preview left unapplied writes nothing.
    if (result.archive) {
      const committed = await archive.commit(result.archive.id, this.deps.settings.current.archive);
      if (!committed.ok) {
        void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${committed.error}`);
        return null;
      }
      this.deps.log.info(`Archived the context before the compaction as ${committed.value.location}`);
    }
    const { adapter } = snapshot;
    // A fork inherits its source's title (pickers say "fork of …"): no suffix piling up over forks of forks.
    const written = await adapter.writeFork({
      live: snapshot.live,
      context: snapshot.context,
      result,
      focus: preview.focus || null,
      title: snapshot.live.session.title,
    });
    if (!written.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${written.error.message}`);
      return null;
    }
    const fork: ForkView = written.value;
    // What the fork had to do beyond the plan (a call still running closed with an error result): said, not hidden.
    for (const note of written.value.notes ?? []) {
      this.deps.log.info(note);
      void vscode.window.showWarningMessage(`Context Lens: ${note}`);
    }
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
    this.deps.log.info(
      `Applied the compaction as session ${fork.sessionId} (${fork.path})${preview.summaryEdited ? ' with the summary edited by the person' : ''}`,
    );
    return { ...preview, applied: fork };
  }

  private async afterApply({ inputs }: Shown, fork: ForkView): Promise<void> {
    const { snapshot } = inputs;
    await this.deps.clearChoices(snapshot.live.session.path);
    const choice = await vscode.window.showInformationMessage(
      `Context Lens: compacted session written — resume it with \`${fork.resumeCommand}\`.`,
      'Resume in Terminal',
      'Copy resume command',
    );
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
    resumeInTerminal(fork, snapshot.adapter, snapshot.live.session, { claude: this.deps.settings.current.summarizer.claudeCliPath });
  }
}
