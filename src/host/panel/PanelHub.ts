// Keeps every open Context Lens surface (the panel-area view and the editor tab) showing the
// same thing: the newest state, plan, preview and progress are pushed to each connection as they
// change, and replayed to a webview that (re)loads.
import * as vscode from 'vscode';
import type { ChoiceAction, ItemDetail, PanelState, PlanView, Preview, WebviewCommand } from '../../protocol/messages';
import { StateDelta } from './stateDelta';
import { WebviewConnection, type PreviewActionMessage } from './WebviewConnection';
import { Disposables } from '../disposables';

export type Progress = { message: string; cancellable: boolean } | null;

/** At most ten state messages a second: an agent streaming a response appends many lines. */
const STATE_INTERVAL_MS = 100;

/** What the webviews may ask of the host; each request is validated before it gets here. */
export interface PanelRequests {
  runCommand(command: WebviewCommand): void;
  itemDetail(id: number): ItemDetail | null;
  previewAction(message: PreviewActionMessage): void;
  cancelProgress(): void;
  /** Keep / drop / pin from the map or the detail pane. */
  choose(action: ChoiceAction): void;
  /** History: the diff or Redo of one of the agent's own compactions. */
  auditAction?(compactionId: string, action: 'openDiff' | 'redo'): void;
}

export class PanelHub extends Disposables {
  private readonly connections = new Set<WebviewConnection>();
  private state: PanelState;
  private plan: PlanView | null = null;
  private preview: Preview | null = null;
  private progress: Progress = null;
  private lastStateSent = 0;
  private stateTimer: NodeJS.Timeout | undefined;
  private readonly sent: StateDelta;

  constructor(
    initial: PanelState,
    private readonly requests: PanelRequests,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.onDispose(() => {
      clearTimeout(this.stateTimer);
      for (const connection of this.connections) connection.dispose();
      this.connections.clear();
    });
    this.state = initial;
    this.sent = new StateDelta(initial);
  }

  /** Connects a webview; the returned disposable detaches it (call when the webview goes away). */
  attach(webview: vscode.Webview): vscode.Disposable {
    const connection: WebviewConnection = new WebviewConnection(webview, {
      onCommand: (command) => this.requests.runCommand(command),
      onReady: () => {
        // The others catch up first, so every webview holds what `sent` says before this one starts.
        this.sendPatch();
        connection.post({ type: 'state', state: this.state });
        connection.post({ type: 'plan', plan: this.plan });
        connection.post({ type: 'preview', preview: this.preview });
        connection.post({ type: 'progress', progress: this.progress });
      },
      onItemDetail: (id) => {
        const detail = this.requests.itemDetail(id);
        if (detail) connection.post({ type: 'itemDetail', detail });
      },
      onPreviewAction: (message) => this.requests.previewAction(message),
      onCancelProgress: () => this.requests.cancelProgress(),
      onChoice: (action) => this.requests.choose(action),
      onAuditAction: (compactionId, action) => this.requests.auditAction?.(compactionId, action),
      log: this.log,
    });
    this.connections.add(connection);
    return new vscode.Disposable(() => {
      this.connections.delete(connection);
      connection.dispose();
    });
  }

  /**
   * Coalesces bursts: the newest state goes out at most every STATE_INTERVAL_MS, and only the parts
   * that changed since the last one (a webview that (re)loads gets it whole on `ready`).
   */
  update(state: PanelState): void {
    this.state = state;
    if (this.stateTimer) return;
    const wait = Math.max(0, this.lastStateSent + STATE_INTERVAL_MS - Date.now());
    this.stateTimer = setTimeout(() => this.flushState(), wait);
  }

  private flushState(): void {
    clearTimeout(this.stateTimer);
    this.stateTimer = undefined;
    this.lastStateSent = Date.now();
    this.sendPatch();
  }

  private sendPatch(): void {
    const patch = this.sent.patch(this.state);
    if (patch === null) return;
    for (const connection of this.connections) connection.post({ type: 'statePatch', patch });
  }

  /**
   * Sent only when the plan changed (its revision moved): plans of large contexts are big. A state
   * still waiting goes first, so the map never shows ahead of the gauge of the same read.
   */
  updatePlan(plan: PlanView | null): void {
    this.plan = plan;
    if (this.stateTimer) this.flushState();
    for (const connection of this.connections) connection.post({ type: 'plan', plan });
  }

  updatePreview(preview: Preview | null): void {
    this.preview = preview;
    for (const connection of this.connections) connection.post({ type: 'preview', preview });
  }

  updateProgress(progress: Progress): void {
    this.progress = progress;
    for (const connection of this.connections) connection.post({ type: 'progress', progress });
  }
}
