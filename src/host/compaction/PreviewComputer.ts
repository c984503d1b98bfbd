// One computation of a preview at a time, with its progress and its Cancel: the summarizer chosen
// (or the person sent to set a key), the engine run against a staged archive, progress in a
// notification (or, for a recomputation nobody clicked for, in the panel only), and the outcome logged.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { FileSystemArchive, StagedArchive } from '../../archive/fileArchive';
import { redactSecrets } from '../../engine';
import { inBackground } from '../background';
import { Commands } from '../commands';
import type { FlowDeps } from './flowDeps';
import type { Computed, PreviewRequest } from './PreviewSession';
import type { PreviewInputs } from './previewInputs';
import { runCompaction } from './run';
import { summarizerOf } from './summarizer';

export type ComputerDeps = Pick<FlowDeps, 'hub' | 'apiKey' | 'archiveFolder' | 'log'>;

export class PreviewComputer {
  private running: AbortController | null = null;

  constructor(private readonly deps: ComputerDeps) {}

  /** A run is under way (a second Compact… is refused, not queued). */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Stops the run under way, if any: from the panel's Cancel, the notification's, or the window closing. */
  cancel(): void {
    this.running?.abort();
  }

  /**
   * One computation of a preview; `automatic` ones (a keep pressed in the map) show progress in the panel only.
   * Never rejects: a failure (the key store, the engine) is logged and said, and no preview comes of it.
   */
  async compute(request: PreviewRequest, inputs: PreviewInputs, automatic: boolean): Promise<Computed | null> {
    try {
      return await this.computeOnce(request, inputs, automatic);
    } catch (error) {
      const message = redactSecrets(error instanceof Error ? error.message : String(error));
      this.deps.log.error(`Compaction failed: ${message}`);
      void vscode.window.showErrorMessage(`Context Lens: the compaction failed: ${message}`);
      return null;
    }
  }

  private async computeOnce(request: PreviewRequest, inputs: PreviewInputs, automatic: boolean): Promise<Computed | null> {
    const { focus, summaryOverride } = request;
    const { snapshot } = inputs;
    const chosen = summarizerOf(inputs.summarizer, await this.deps.apiKey.get(), snapshot.live.session.cwd ?? undefined);
    if (!chosen.ok) {
      const setKey = 'Set API Key';
      void vscode.window.showErrorMessage(`Context Lens: ${chosen.error}`, setKey).then((choice) => {
        if (choice === setKey) inBackground(vscode.commands.executeCommand(Commands.setApiKey), this.deps.log, 'Set API Key');
      });
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
}
