// "Context Lens: Install 'ctxlens' command in PATH" and its Uninstall (cliLauncher.ts does the
// work), and, at activation, the launcher re-pointed at this version's bundled CLI when an update
// moved it.
import * as vscode from 'vscode';
import { CLI_NAME, hostWhere, installLauncher, refreshLauncher, uninstallLauncher, type LauncherRuntime } from './cliLauncher';
import { Commands } from './commands';
import { Disposables } from './disposables';

/** The extension host's own runtime and the bundled CLI: a Node the CLI supports wherever VS Code runs. */
export function extensionRuntime(extensionUri: vscode.Uri): LauncherRuntime {
  return { execPath: process.execPath, isElectron: process.versions.electron !== undefined, cli: vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath };
}

export class CliLauncherCommands extends Disposables {
  private readonly runtime: LauncherRuntime;

  constructor(
    extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.runtime = extensionRuntime(extensionUri);
    this.own(vscode.commands.registerCommand(Commands.installCli, () => this.install()));
    this.own(vscode.commands.registerCommand(Commands.uninstallCli, () => this.uninstall()));
    void refreshLauncher(this.runtime, this.where()).then(
      (refreshed) => refreshed && this.log.info(`Re-pointed the '${CLI_NAME}' command at ${this.runtime.cli}`),
      (error: unknown) => this.log.warn(`Could not update the '${CLI_NAME}' command: ${String(error)}`),
    );
  }

  private where() {
    return hostWhere(process.env, process.platform);
  }

  private async install(): Promise<void> {
    const outcome = await installLauncher(this.runtime, this.where());
    if (!outcome.ok) {
      this.log.warn(`Install '${CLI_NAME}': ${outcome.error}`);
      void vscode.window.showErrorMessage(`Context Lens: ${outcome.error}`);
      return;
    }
    this.log.info(`Installed the '${CLI_NAME}' command: ${outcome.value.path}`);
    const folder = outcome.value.path.slice(0, outcome.value.path.length - CLI_NAME.length - 1);
    void vscode.window.showInformationMessage(
      outcome.value.onPath
        ? `Context Lens: '${CLI_NAME}' is installed in ${folder}. Try \`${CLI_NAME} --help\` in a new terminal.`
        : `Context Lens: '${CLI_NAME}' is installed in ${folder}, which is not on your PATH: add \`export PATH="${folder}:$PATH"\` to your shell's startup file (~/.profile, ~/.bashrc or ~/.zshrc), then open a new terminal.`,
    );
  }

  private async uninstall(): Promise<void> {
    try {
      const { removed, foreign } = await uninstallLauncher(this.where());
      const left = foreign.length > 0 ? ` Left ${foreign.join(', ')}: not written by Context Lens.` : '';
      this.log.info(`Uninstall '${CLI_NAME}': removed ${removed.join(', ') || 'nothing'}.${left}`);
      void vscode.window.showInformationMessage(
        removed.length > 0
          ? `Context Lens: removed ${removed.join(', ')}.${left}`
          : `Context Lens: no '${CLI_NAME}' command of Context Lens's is installed.${left}`,
      );
    } catch (error) {
      void vscode.window.showErrorMessage(`Context Lens: could not remove the '${CLI_NAME}' command: ${String(error)}`);
    }
  }
}
