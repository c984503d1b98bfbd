// Resume in Terminal after Apply: the agent's resume command in a terminal at the session's folder,
// or, when the agent's command is not installed, what is missing and how to get it.
import * as vscode from 'vscode';
import { adapterOf } from '../../sessions/agents';
import type { SessionInfo } from '../../sessions/types';
import type { ForkView } from '../../protocol/messages';
import { executableOnPath } from '../connect/launcher';

/** The `claude` binary can be set (contextLens.summarizer.claudeCliPath, for the claude -p summarizer). */
const CLAUDE_BINARY = 'claude';

/** A path as one POSIX shell word. */
const shellQuote = (path: string): string => `'${path.replace(/'/g, `'\\''`)}'`;

/** `claudeCliPath`: the setting for the `claude` binary ('' = from PATH); other agents' commands are on PATH. */
export function resumeInTerminal(fork: ForkView, session: Pick<SessionInfo, 'agent' | 'cwd'>, claudeCliPath: string): void {
  const adapter = adapterOf(session.agent);
  const configured = adapter.command === CLAUDE_BINARY ? claudeCliPath : '';
  if (configured === '' && executableOnPath(adapter.command, process.env.PATH ?? '', process.platform) === null) {
    // A terminal would only say "command not found": say what is missing and how to get it.
    const copy = 'Copy resume command';
    const guide = 'Open Install Guide';
    void vscode.window
      .showErrorMessage(
        `Context Lens: ${adapter.name}'s \`${adapter.command}\` command is not on PATH, so the fork cannot be resumed here. Install it with \`npm install -g ${adapter.installPackage}\`${adapter.command === CLAUDE_BINARY ? ' (or set contextLens.summarizer.claudeCliPath)' : ''}, then run \`${fork.resumeCommand}\` in ${session.cwd ?? 'the session\'s folder'}.`,
        copy,
        guide,
      )
      .then((choice) => {
        if (choice === copy) void vscode.env.clipboard.writeText(fork.resumeCommand);
        else if (choice === guide) void vscode.env.openExternal(vscode.Uri.parse(adapter.installGuide));
      });
    return;
  }
  // `claude --resume` finds sessions by the folder it runs in: the session's own cwd.
  const cwd = session.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const terminal = vscode.window.createTerminal({ name: `${adapter.name} (compacted)`, ...(cwd ? { cwd } : {}) });
  terminal.show();
  terminal.sendText(configured === '' ? fork.resumeCommand : fork.resumeCommand.replace(/^claude\b/, shellQuote(configured)));
}
