// The composition root: makes the host services and wires them together. Each service owns what it
// must release (disposables.ts); the app owns the services and is itself owned by the extension context.
import * as vscode from 'vscode';
import type { PanelState } from '../protocol/messages';
import { hookEventsPath } from '../contracts/hookEvents';
import { proxyEventsPath, proxyStateDir, type ProxyEvent } from '../proxy/events';
import { connectableAgents } from '../sessions/connectable';
import { CliLauncherCommands, extensionRuntime } from './cliLauncherCommands';
import { Commands, webviewCommandIds } from './commands';
import { ApiKeyStore } from './compaction/ApiKeyStore';
import { CompactionFlow } from './compaction/CompactionFlow';
import { AuditActions } from './compaction/AuditActions';
import { DiffDocuments } from './compaction/DiffDocuments';
import { AgentConnector } from './connect/AgentConnector';
import { ConnectionStatus } from './connect/ConnectionStatus';
import { followedAgent } from './connect/followedAgent';
import { ContextModel } from './context/ContextModel';
import { itemDetailOf } from './context/itemDetail';
import { HistoryStore } from './history/HistoryStore';
import { readHookEvents, type HookEvent } from './history/hookEvents';
import { EventFileLog } from './events/EventFileLog';
import { readProxyEventTail } from './proxy/liveProxySummary';
import { liveInstructionsOf } from './proxy/liveInstructions';
import { EditorPanel } from './panel/EditorPanel';
import { PanelHub } from './panel/PanelHub';
import { panelStateOf } from './panel/panelState';
import { LiveProxyControl } from './proxy/LiveProxyControl';
import { wireItemsOf } from './proxy/wireItems';
import { PanelInstructionsWriter } from './proxy/PanelInstructionsWriter';
import { PANEL_VIEW_ID, PanelViewProvider } from './panel/PanelViewProvider';
import { ResidentCli } from './ResidentCli';
import { TerminalEnvironment } from './terminalEnvironment';
import { SessionService } from './sessions/SessionService';
import { SettingsWatcher } from './settings';
import { Disposables } from './disposables';
import { FillStatusBar } from './statusBar';
import { TriggerNotifier } from './triggers/TriggerNotifier';

export class ContextLensApp extends Disposables {
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
  private readonly connector: AgentConnector;
  private readonly connection: ConnectionStatus;
  private readonly liveProxy: LiveProxyControl;
  /** The state last shown, for the proxy's instructions when only the plan (the choices) changed. */
  private lastState: PanelState | undefined;
  private readonly activatedAt = performance.now();
  private firstFillLogged = false;
  /** The refused trigger settings last warned about, so a change elsewhere does not repeat the warning. */
  private warnedTriggerProblems = '';
  private readonly audits: AuditActions;

  constructor(context: vscode.ExtensionContext) {
    super();
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
    this.audits = new AuditActions({
      snapshot: () => this.model.snapshot,
      diffs,
      archiveFolder: vscode.Uri.joinPath(context.globalStorageUri, 'archive').fsPath,
      claudeCliPath: () => this.settings.current.summarizer.claudeCliPath,
      log: this.log,
    });
    // The panel's line and the Connect commands follow the viewed session's agent (any the registry can connect).
    const connectable = connectableAgents();
    const followed = () => followedAgent(this.sessions.current.handle?.adapter, connectable);
    this.connector = new AgentConnector(connectable, followed, {
      extensionUri: context.extensionUri,
      globalStorageUri: context.globalStorageUri,
      version: context.extension.packageJSON.version as string,
      diffs,
      log: this.log,
    });
    this.connection = this.own(new ConnectionStatus(followed(), () => this.connector.paths(), this.log));
    this.own(this.sessions.onDidChange(() => this.connection.follow(followed())));
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
          auditAction: (compactionId, action) => void this.audits.run(compactionId, action),
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
    const terminals = new TerminalEnvironment(context.environmentVariableCollection);
    this.liveProxy = this.own(
      new LiveProxyControl(terminals, this.log, () => this.settings.current.prices, {
        // The extension's own storage: private to the person, and where a new terminal's PATH may point.
        parent: context.globalStorageUri.fsPath,
        runtime: extensionRuntime(context.extensionUri),
      }),
    );
    this.own(new CliLauncherCommands(context.extensionUri, this.log));
    this.own(new ResidentCli(context.extensionUri, this.settings, terminals, this.log));
    this.own(
      this.settings.onDidChange((settings) => {
        this.log.info(`Settings changed: trigger ${settings.triggerPercent} %, target ${settings.targetPercent} %, safety net ${settings.safetyNetPercent} %`);
        this.warnAboutTriggerSettings();
        this.refresh();
      }),
    );
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
      void vscode.window
        .showWarningMessage(`Context Lens: ${problem}`, 'Open Settings')
        .then((choice) => choice && vscode.commands.executeCommand(Commands.openSettings));
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
    return panelStateOf({
      settings: this.settings.current,
      view: this.sessions.current,
      model: this.model,
      history: this.history,
      hookEvents: this.hookEvents.events,
      proxyEvents: this.proxyEvents.events,
      connection: this.connection.current,
      hasWorkspace: (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
    });
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
      this.log.info(
        `First fill shown ${Math.round(performance.now() - this.activatedAt)} ms after activation (transcript ${this.sessions.current.session?.sizeBytes ?? 0} bytes)`,
      );
    }
  }

  /** The gauge's window and thresholds, the settings' engine knobs and the map's choices, for any live proxy. */
  private instructProxy(state: PanelState): void {
    const session = this.sessions.current.session;
    // Every agent the proxy speaks for gets the panel's say: by the session id its requests name, else by its tool call ids.
    if (session === undefined || session === null) return;
    const items = wireItemsOf(this.sessions.current.handle?.adapter, this.model.snapshot?.context.items ?? []);
    this.panelInstructions.update(
      session.id,
      liveInstructionsOf({
        settings: this.settings.current,
        thresholds: state.thresholds,
        windowTokens: state.fill?.windowTokens ?? null,
        choices: this.model.choices,
        items,
      }),
    );
  }
}
