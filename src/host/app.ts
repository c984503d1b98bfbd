// Wires the host services together. Each service owns its own disposables; the app owns the
// services and is itself owned by the extension context.
import * as vscode from 'vscode';
import { agentLabel } from '../protocol/agents';
import type { PanelState } from '../protocol/messages';
import { hookEventsPath } from '../contracts/hookEvents';
import { proxyEventsPath, proxyStateDir, type ProxyEvent } from '../proxy/events';
import type { FillSnapshot } from '../sessions/types';
import { Commands, webviewCommandIds } from './commands';
import { ApiKeyStore } from './compaction/ApiKeyStore';
import { CompactionFlow } from './compaction/CompactionFlow';
import { DiffDocuments } from './compaction/DiffDocuments';
import { ClaudeCodeConnector } from './connect/ClaudeCodeConnector';
import { ConnectionStatus } from './connect/ConnectionStatus';
import { ContextModel } from './context/ContextModel';
import { itemDetailOf } from './context/itemDetail';
import { agentCompactionsOf, historyOf, timelineMarksOf } from './history/history';
import { HistoryStore } from './history/HistoryStore';
import { hookActivityOf, readHookEvents, type HookEvent } from './history/hookEvents';
import { EventFileLog } from './events/EventFileLog';
import { followedCalls, liveProxyOf, readProxyEventTail } from './proxy/liveProxySummary';
import { liveInstructionsOf } from './proxy/liveInstructions';
import { withLiveEdits } from './proxy/liveTimeline';
import { EditorPanel } from './panel/EditorPanel';
import { PanelHub } from './panel/PanelHub';
import { LiveProxyControl } from './proxy/LiveProxyControl';
import { PanelInstructionsWriter } from './proxy/PanelInstructionsWriter';
import { PANEL_VIEW_ID, PanelViewProvider } from './panel/PanelViewProvider';
import { SessionService, type SessionView } from './sessions/SessionService';
import { SettingsWatcher, thresholdsOf } from './settings';
import { FillStatusBar } from './statusBar';
import { TriggerNotifier } from './triggers/TriggerNotifier';

export class ContextLensApp implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly log: vscode.LogOutputChannel;
  private readonly settings: SettingsWatcher;
  private readonly hub: PanelHub;
  private readonly view: PanelViewProvider;
  private readonly editor: EditorPanel;
  private readonly statusBar: FillStatusBar;
  private readonly sessions: SessionService;
  private readonly model: ContextModel;
  private readonly history: HistoryStore;
  private readonly hookEvents: EventFileLog<HookEvent>;
  private readonly proxyEvents: EventFileLog<ProxyEvent>;
  private readonly panelInstructions: PanelInstructionsWriter;
  private readonly apiKey: ApiKeyStore;
  private readonly flow: CompactionFlow;
  private readonly connector: ClaudeCodeConnector;
  private readonly connection: ConnectionStatus;
  private readonly liveProxy: LiveProxyControl;
  /** The state last shown, for the proxy's instructions when only the plan (the choices) changed. */
  private lastState: PanelState | undefined;
  private readonly activatedAt = performance.now();
  private firstFillLogged = false;
  /** The refused trigger settings last warned about, so a change elsewhere does not repeat the warning. */
  private warnedTriggerProblems = '';

  constructor(context: vscode.ExtensionContext) {
    this.log = this.own(vscode.window.createOutputChannel('Context Lens', { log: true }));
    this.settings = this.own(new SettingsWatcher());
    this.sessions = this.own(new SessionService(this.settings, this.log));
    this.history = this.own(new HistoryStore(context.workspaceState));
    this.own(new TriggerNotifier(this.sessions, this.settings, this.history, this.log));
    this.hookEvents = this.own(new EventFileLog(hookEventsPath(process.env), readHookEvents, 'hook events', this.log));
    this.proxyEvents = this.own(new EventFileLog(proxyEventsPath(process.env), readProxyEventTail, 'live proxy events', this.log));
    this.panelInstructions = new PanelInstructionsWriter(proxyStateDir(process.env), (line) => this.log.warn(line));
    this.model = this.own(new ContextModel(this.sessions, this.settings, this.log, context.workspaceState));
    this.apiKey = new ApiKeyStore(context.secrets);
    const diffs = this.own(new DiffDocuments(this.log));
    this.connector = new ClaudeCodeConnector({
      extensionUri: context.extensionUri,
      globalStorageUri: context.globalStorageUri,
      version: context.extension.packageJSON.version as string,
      diffs,
      log: this.log,
    });
    this.connection = this.own(new ConnectionStatus(() => this.connector.commands(), this.log));
    this.hub = this.own(
      new PanelHub(
        this.computeState(),
        {
          runCommand: (command) => void vscode.commands.executeCommand(webviewCommandIds[command]),
          itemDetail: (id) => {
            // While a preview is shown the map lists its items: the preview's run answers for them.
            const snapshot = this.model.snapshot;
            return this.flow.itemDetail(id) ?? (snapshot ? itemDetailOf(snapshot.context, id, this.model.fateOf(id)) : null);
          },
          previewAction: (message) => void this.flow.onAction(message),
          cancelProgress: () => this.flow.cancelProgress(),
          choose: (action) => void this.model.choose(action),
        },
        this.log,
      ),
    );
    this.view = this.own(new PanelViewProvider(context.extensionUri, this.hub));
    this.editor = this.own(new EditorPanel(context.extensionUri, this.hub));
    this.statusBar = this.own(new FillStatusBar(Commands.openPanel));
    this.flow = this.own(
      new CompactionFlow({
        hub: this.hub,
        settings: this.settings,
        apiKey: this.apiKey,
        history: this.history,
        diffs,
        snapshot: () => this.model.snapshot,
        choices: () => this.model.choices,
        clearChoices: (sessionPath) => this.model.clearChoices(sessionPath),
        planChanged: this.model.onDidChangePlan,
        state: context.workspaceState,
        revealPanel: () => this.view.reveal(),
        archiveFolder: vscode.Uri.joinPath(context.globalStorageUri, 'archive').fsPath,
        log: this.log,
      }),
    );

    this.own(vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, this.view));
    this.registerCommands();
    this.liveProxy = this.own(new LiveProxyControl(context, this.log));
    this.own(this.settings.onDidChange((settings) => {
      this.log.info(`Settings changed: trigger ${settings.triggerPercent} %, target ${settings.targetPercent} %, safety net ${settings.safetyNetPercent} %`);
      this.warnAboutTriggerSettings();
      this.refresh();
    }));
    this.warnAboutTriggerSettings();
    this.own(this.sessions.onDidChange(() => this.refresh()));
    this.own(this.model.onDidChange(() => this.refresh()));
    this.own(this.history.onDidChange(() => this.refresh()));
    this.own(this.hookEvents.onDidChange(() => this.refresh()));
    this.own(this.proxyEvents.onDidChange(() => this.refresh()));
    this.own(this.connection.onDidChange(() => this.refresh()));
    this.own(
      this.model.onDidChangePlan((plan) => {
        this.hub.updatePlan(plan);
        // A keep, drop or pin in the map changes the plan: the proxy's next request follows it.
        if (this.lastState) this.instructProxy(this.lastState);
      }),
    );
    this.refresh();
    void this.sessions.start();
    this.log.info(`Context Lens ${context.extension.packageJSON.version as string} activated`);
  }

  /** A refused trigger setting gets one warning (the gauge keeps saying which value is used). */
  private warnAboutTriggerSettings(): void {
    const problems = this.settings.current.triggerProblems;
    const key = problems.join('\n');
    if (key === this.warnedTriggerProblems) return;
    this.warnedTriggerProblems = key;
    for (const problem of problems) {
      this.log.warn(problem);
      void vscode.window.showWarningMessage(`Context Lens: ${problem}`, 'Open Settings').then((choice) => choice && vscode.commands.executeCommand(Commands.openSettings));
    }
  }

  private registerCommands(): void {
    const register = (id: string, run: () => unknown) => this.own(vscode.commands.registerCommand(id, run));
    register(Commands.openPanel, () => this.view.reveal());
    register(Commands.openInEditor, () => this.editor.show());
    register(Commands.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:context-lens.context-lens'));
    register(Commands.showLog, () => this.log.show());
    register(Commands.selectSession, () => this.sessions.selectSession());
    register(Commands.openTranscript, () => this.sessions.openTranscript());
    register(Commands.compact, () => this.flow.run(true));
    register(Commands.previewCompaction, () => this.flow.run(false));
    register(Commands.setApiKey, () => this.apiKey.prompt());
    register(Commands.pruneArchive, () => this.flow.pruneArchive());
    // Re-read at once: the file watcher may be slow or absent (remote and virtual file systems).
    register(Commands.connectClaudeCode, () => this.connector.connect().finally(() => this.connection.refresh()));
    register(Commands.disconnectClaudeCode, () => this.connector.disconnect().finally(() => this.connection.refresh()));
  }

  private computeState(): PanelState {
    const settings = this.settings.current;
    const view = this.sessions.current;
    const fill = view.fill;
    const snapshot = this.model.snapshot;
    const ours = view.session ? this.history.of(view.session.path) : [];
    const agent = agentCompactionsOf(snapshot?.live.compactions ?? [], view.compactions);
    const hooks = view.session ? hookActivityOf(view.session.id, agent, this.hookEvents.events) : new Map();
    const followed = { sessionId: view.session?.id ?? null, items: snapshot?.context.items ?? [] };
    return {
      session: view.session ? sessionSummary(view) : null,
      fill: fill && shownFill(fill) ? { usedTokens: fill.usedTokens, windowTokens: fill.windowTokens, source: fill.source, pendingTokens: fill.pendingTokens } : null,
      thresholds: thresholdsOf(settings, fill ? (fill.agentAutoCompactTokens / fill.windowTokens) * 100 : null, agentLabel(view.session?.agent).name),
      breakdown: snapshot?.breakdown ?? [],
      reservedOutputTokens: snapshot?.reservedOutputTokens ?? 0,
      timeline: withLiveEdits(this.model.timeline(agent, timelineMarksOf(ours)), followedCalls(this.proxyEvents.events, followed.sessionId)),
      history: historyOf(agent, ours, hooks, view.forks),
      empty: emptyReason(view),
      diagnostics: view.diagnostics.map((diagnostic) => `${diagnostic.line ? `line ${diagnostic.line}: ` : ''}${diagnostic.message}`),
      claudeHooks: this.connection.current,
      contextLoading: this.model.loading,
      liveProxy: liveProxyOf(this.proxyEvents.events, followed),
      cost: this.model.cost,
    };
  }

  private refresh(): void {
    const state = this.computeState();
    this.lastState = state;
    this.hub.update(state);
    this.statusBar.render(state, this.settings.current.statusBarEnabled, this.settings.current.costInStatusBar);
    this.liveProxy.showSummary(state.liveProxy);
    this.instructProxy(state);
    if (!this.firstFillLogged && state.fill) {
      // The figure a person waits for after opening a workspace: checked by the first-paint e2e test.
      this.firstFillLogged = true;
      this.log.info(`First fill shown ${Math.round(performance.now() - this.activatedAt)} ms after activation (transcript ${this.sessions.current.session?.sizeBytes ?? 0} bytes)`);
    }
  }

  /** The gauge's window and thresholds, the settings' engine knobs and the map's choices, for any live proxy. */
  private instructProxy(state: PanelState): void {
    const session = this.sessions.current.session;
    // The proxy speaks Claude Code's API; Codex sessions never go through it.
    if (session?.agent !== 'claude-code') return;
    const items = this.model.snapshot?.context.items ?? [];
    this.panelInstructions.update(session.id, liveInstructionsOf({ settings: this.settings.current, thresholds: state.thresholds, windowTokens: state.fill?.windowTokens ?? null, choices: this.model.choices, items }));
  }

  private own<T extends vscode.Disposable>(disposable: T): T {
    this.disposables.push(disposable);
    return disposable;
  }

  dispose(): void {
    for (const disposable of this.disposables.reverse()) disposable.dispose();
  }
}

function sessionSummary(view: SessionView): PanelState['session'] {
  const session = view.session!;
  return {
    id: session.id,
    title: session.title,
    agent: session.agent,
    model: view.fill?.model ?? session.model,
    path: session.path,
    live: true,
    ...(session.forkOf ? { forkOf: { title: session.forkOf.title } } : {}),
  };
}

/**
 * Exact from the last response, or after a compaction (the agent's or our fork) the count the
 * compaction recorded, shown as an estimate until the next response. Before any of those there is
 * nothing worth a gauge: the system prompt and tools are not in the transcript.
 */
function shownFill(fill: FillSnapshot): boolean {
  return fill.source === 'usage' || fill.usedTokens > 0;
}

function emptyReason(view: SessionView): PanelState['empty'] {
  if (!view.session) return (vscode.workspace.workspaceFolders?.length ?? 0) > 0 ? 'noSession' : 'noWorkspace';
  // No fill at all yet: the follower's first read (from the end of the file) has not landed.
  if (!view.fill) return 'readingSession';
  return shownFill(view.fill) ? null : 'waitingForUsage';
}
