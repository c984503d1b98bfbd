// Wires the host services together. Each service owns its own disposables; the app owns the
// services and is itself owned by the extension context.
import * as vscode from 'vscode';
import type { PanelState } from '../protocol/messages';
import { Commands, webviewCommandIds } from './commands';
import { EditorPanel } from './panel/EditorPanel';
import { PanelHub } from './panel/PanelHub';
import { PANEL_VIEW_ID, PanelViewProvider } from './panel/PanelViewProvider';
import { SettingsWatcher, thresholdsOf, type Settings } from './settings';
import { FillStatusBar } from './statusBar';

export class ContextLensApp implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly log: vscode.LogOutputChannel;
  private readonly settings: SettingsWatcher;
  private readonly hub: PanelHub;
  private readonly view: PanelViewProvider;
  private readonly editor: EditorPanel;
  private readonly statusBar: FillStatusBar;

  constructor(context: vscode.ExtensionContext) {
    this.log = this.own(vscode.window.createOutputChannel('Context Lens', { log: true }));
    this.settings = this.own(new SettingsWatcher());
    this.hub = this.own(new PanelHub(this.computeState(this.settings.current), (command) => void vscode.commands.executeCommand(webviewCommandIds[command]), this.log));
    this.view = this.own(new PanelViewProvider(context.extensionUri, this.hub));
    this.editor = this.own(new EditorPanel(context.extensionUri, this.hub));
    this.statusBar = this.own(new FillStatusBar(Commands.openPanel));

    this.own(vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, this.view));
    this.registerCommands();
    this.own(this.settings.onDidChange((settings) => this.refresh(settings)));
    this.refresh(this.settings.current);
    this.log.info(`Context Lens ${context.extension.packageJSON.version as string} activated`);
  }

  private registerCommands(): void {
    const register = (id: string, run: () => unknown) => this.own(vscode.commands.registerCommand(id, run));
    register(Commands.openPanel, () => this.view.reveal());
    register(Commands.openInEditor, () => this.editor.show());
    register(Commands.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:context-lens.context-lens'));
    register(Commands.showLog, () => this.log.show());
  }

  private computeState(settings: Settings): PanelState {
    const hasWorkspace = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
    return {
      session: null,
      fill: null,
      thresholds: thresholdsOf(settings, null),
      empty: hasWorkspace ? 'noSession' : 'noWorkspace',
      diagnostics: [],
    };
  }

  private refresh(settings: Settings): void {
    const state = this.computeState(settings);
    this.hub.update(state);
    this.statusBar.render(state, settings.statusBarEnabled);
  }

  private own<T extends vscode.Disposable>(disposable: T): T {
    this.disposables.push(disposable);
    return disposable;
  }

  dispose(): void {
    for (const disposable of this.disposables.reverse()) disposable.dispose();
  }
}
