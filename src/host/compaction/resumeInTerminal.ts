// Resume in Terminal after Apply: the agent's resume command in a terminal at the session's folder,
// or, when the agent's command is not installed, what is missing and how to get it.
import * as vscode from 'vscode';
import { shellWord } from '../../base/shell';
import type { AgentAdapter } from '../../sessions/port';
import type { SessionInfo } from '../../sessions/types';
import type { ForkView } from '../../protocol/messages';
import { executableOnPath } from '../connect/launcher';

/**
 * `binaries`: commands whose binary a setting names, by command (e.g. the `claude -p` summarizer's
 * contextLens.summarizer.claudeCliPath; '' = from PATH); every other agent's command is on PATH.
 */
export function resumeInTerminal(fork: ForkView, adapter: AgentAdapter, session: Pick<SessionInfo, 'cwd'>, binaries: Readonly<Record<string, string>>): void {
  const setting = Object.hasOwn(binaries, adapter.command) ? binaries[adapter.command] : undefined;
  const configured = setting ?? '';
  if (configured === '' && executableOnPath(adapter.command, process.env.PATH ?? '', process.platform) === null) {
    // A terminal would only say "command not found": say what is missing and how to get it.
    const copy = 'Copy resume command';
    const guide = 'Open Install Guide';
    void vscode.window
      .showErrorMessage(
        `Context Lens: ${adapter.name}'s \`${adapter.command}\` command is not on PATH, so the fork cannot be resumed here. Install it with \`npm install -g ${adapter.installPackage}\`${setting !== undefined ? ' (or set the path of its binary in the settings)' : ''}, then run \`${fork.resumeCommand}\` in ${session.cwd ?? "the session's folder"}.`,
        copy,
        guide,
      )
      .then((choice) => {
        if (choice === copy) void vscode.env.clipboard.writeText(fork.resumeCommand);
        else if (choice === guide) void vscode.env.openExternal(vscode.Uri.parse(adapter.installGuide));
      });
    return;
  }
  // A resume finds sessions by the folder it runs in (`claude --resume`): the session's own cwd.
  const cwd = session.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const terminal = vscode.window.createTerminal({ name: `${adapter.name} (compacted)`, ...(cwd ? { cwd } : {}) });
  terminal.show();
  terminal.sendText(
    configured === '' || commandWord(fork.resumeCommand) !== adapter.command
      ? fork.resumeCommand
      : `${shellWord(configured)}${fork.resumeCommand.slice(commandWord(fork.resumeCommand).length)}`,
  );
}

/** The command word a resume command starts with (`claude` of `claude --resume <id>`). */
const commandWord = (command: string): string => /^\S*/.exec(command)?.[0] ?? '';
