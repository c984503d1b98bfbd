// Compact… and Preview Compaction: run the engine on the live context (cancellable, with progress in
// a notification and in the panel), show the preview, and act on it: open the diff, edit its summary,
// refresh it, apply it as a fork the agent can resume (the source transcript is only read, and must
// not have moved on), or cancel. Which preview is shown, and whether it may be applied, is
// PreviewSession's; this file asks for the focus and routes the panel's buttons to the parts that do
// the work: PreviewComputer (progress, cancel), PreviewDiff, applyPreview (the fork on disk), pruneArchiveNow.
import * as vscode from 'vscode';
import { redactSecrets } from '../../engine';
import type { ItemDetail } from '../../protocol/messages';
import { withBreakEven } from '../context/costs';
import { AGENT_COMMANDS } from '../../sessions/agents';
import type { PreviewActionMessage } from '../panel/WebviewConnection';
import { inBackground } from '../background';
import { Disposables } from '../disposables';
import { applyPreview, resumeFork, type ApplyDeps } from './applyPreview';
import type { FlowDeps } from './flowDeps';
import { FocusMemory } from './focusMemory';
import { previewItemDetail } from './preview';
import { PreviewComputer } from './PreviewComputer';
import { PreviewDiff } from './PreviewDiff';
import { PreviewSession } from './PreviewSession';
import type { PreviewInputs } from './previewInputs';
import { pruneArchiveNow } from './pruneArchiveCommand';

export type { FlowDeps } from './flowDeps';

export class CompactionFlow extends Disposables {
  private readonly session: PreviewSession;
  private readonly computer: PreviewComputer;
  /** The shown preview's diff documents, loaded into VS Code before anyone clicks Open in Diff Editor. */
  private readonly diff: PreviewDiff;
  private readonly focusMemory: FocusMemory;
  private readonly applyDeps: ApplyDeps;

  constructor(private readonly deps: FlowDeps) {
    super();
    this.computer = new PreviewComputer(deps);
    this.session = new PreviewSession({
      inputs: () => this.inputs(),
      compute: (request, inputs, automatic) => this.computer.compute(request, inputs, automatic),
      publish: (preview) => {
        deps.hub.updatePreview(withBreakEven(preview, deps.settings.current.prices, deps.snapshot()));
        this.diff.prepareSoon();
      },
    });
    this.diff = this.own(new PreviewDiff(deps.diffs, () => this.session.shown));
    this.focusMemory = new FocusMemory(deps.state);
    this.applyDeps = { ...deps, session: this.session, compactAgain: (focus) => inBackground(this.run(true, focus), deps.log, 'Compact… again') };
    this.own(deps.planChanged(() => this.session.inputsChanged()));
    this.own(deps.settings.onDidChange(() => this.session.inputsChanged()));
    // A run still under way stops with the window (the diff's pending load is owned above).
    this.onDispose(() => this.computer.cancel());
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
    if (this.computer.busy) {
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

  cancelProgress(): void {
    this.computer.cancel();
  }

  /** While a preview is shown the map shows its items, so their details come from the same run. */
  itemDetail(id: number): ItemDetail | null {
    const shown = this.session.shown;
    return shown ? previewItemDetail(shown.inputs.snapshot.context, shown.result, id) : null;
  }

  /** A button of the preview; never rejects (the panel does not wait): a failure is logged and said. */
  async onAction(message: PreviewActionMessage): Promise<void> {
    try {
      await this.act(message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.deps.log.error(`Preview action ${message.type === 'editSummary' ? 'editSummary' : message.action} failed: ${text}`);
      void vscode.window.showErrorMessage(`Context Lens: ${text}`);
    }
  }

  private async act(message: PreviewActionMessage): Promise<void> {
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
        return this.diff.open(shown);
      case 'apply':
        return applyPreview(this.applyDeps, previewId);
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
        if (shown.preview.applied) resumeFork(this.deps, shown.preview.applied, shown.inputs.snapshot);
        return;
      case 'copyResumeCommand':
        if (shown.preview.applied) await vscode.env.clipboard.writeText(shown.preview.applied.resumeCommand);
        return;
    }
  }

  /** Context Lens: Prune Archive — the caps from the settings, applied now. */
  pruneArchive(): Promise<void> {
    return pruneArchiveNow(this.deps);
  }
}
