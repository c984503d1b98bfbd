// One live webview (panel view or editor tab). Holds messages back until the webview says
// `ready`, validates everything it receives, and forwards only whitelisted commands.
import type * as vscode from 'vscode';
import { parseWebviewMessage, type ChoiceAction, type HostMessage, type WebviewCommand, type WebviewMessage } from '../../protocol/messages';
import { Disposables } from '../disposables';

/** A button of the preview, or the person's edited summary for it. */
export type PreviewActionMessage = Extract<WebviewMessage, { type: 'previewAction' | 'editSummary' }>;

export interface ConnectionHandlers {
  readonly onCommand: (command: WebviewCommand) => void;
  readonly onReady: () => void;
  /** The detail pane asks for one item; the answer goes back to this webview only. */
  readonly onItemDetail: (id: number) => void;
  readonly onPreviewAction: (message: PreviewActionMessage) => void;
  readonly onCancelProgress: () => void;
  readonly onChoice: (action: ChoiceAction) => void;
  /** History's actions on one of the agent's compactions (absent: ignored). */
  readonly onAuditAction?: (compactionId: string, action: 'openDiff' | 'redo') => void;
  readonly log: vscode.LogOutputChannel;
}

const MAX_REFUSALS_LOGGED = 20;

export class WebviewConnection extends Disposables {
  private ready = false;
  private pending: HostMessage[] = [];
  private readonly refusals = new Set<string>();

  constructor(
    private readonly webview: vscode.Webview,
    private readonly handlers: ConnectionHandlers,
  ) {
    super();
    this.own(webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
  }

  post(message: HostMessage): void {
    if (!this.ready) {
      // Only the newest state matters to a webview that has not rendered yet; it gets the whole
      // state when it says ready, so patches against an older one are dropped.
      if (message.type !== 'statePatch') this.pending = [...this.pending.filter((queued) => queued.type !== message.type), message];
      return;
    }
    void this.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.handlers.log.warn(`Ignored a malformed message from the webview: ${parsed.error}`);
      return;
    }
    const message = parsed.value;
    switch (message.type) {
      case 'ready': {
        // A reload of the webview (hide/show with retainContextWhenHidden off) sends ready again.
        this.ready = true;
        const queued = this.pending;
        this.pending = [];
        for (const item of queued) void this.webview.postMessage(item);
        this.handlers.onReady();
        return;
      }
      case 'command':
        this.handlers.onCommand(message.command);
        return;
      case 'itemDetail':
        this.handlers.onItemDetail(message.id);
        return;
      case 'previewAction':
      case 'editSummary':
        this.handlers.onPreviewAction(message);
        return;
      case 'cancelProgress':
        this.handlers.onCancelProgress();
        return;
      case 'choice':
        this.handlers.onChoice(message.action);
        return;
      case 'auditAction':
        this.handlers.onAuditAction?.(message.compactionId, message.action);
        return;
      case 'refused':
        // Our own bug, said once per kind in the log a person sends with a report; the webview showed the rest.
        if (this.refusals.has(message.detail) || this.refusals.size >= MAX_REFUSALS_LOGGED) return;
        this.refusals.add(message.detail);
        this.handlers.log.error(`The panel refused part of the state the host sent (a Context Lens bug): ${message.detail}`);
        return;
    }
  }
}
