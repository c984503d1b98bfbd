// `context-lens connect|disconnect [DIR]`: the VS Code command's edit from a terminal. The hooks,
// the status line and the MCP server run this very CLI (and its status line bundle beside it) with
// the Node that runs it now.
import { join, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { changesOf, connectionCommands, mcpEntry, planConnection, saveConnection, type ConnectVerb } from '../sessions/claude-code';
import { EXIT_OK, inputError, parse, type Io } from './io';

export const CONNECT_USAGE = `context-lens connect|disconnect [DIR] [--dry-run]
  Adds to (or removes from) DIR/.claude/settings.local.json (DIR defaults to the current folder)
  the pre-compact and session-start hooks and, when none is set, the status line, all running this
  CLI, and to DIR/.mcp.json the Context Lens MCP server (the agent's compact_context and recall
  tools). Prints the changes as diffs; --dry-run writes nothing. Only those entries change: the rest
  of each file stays byte for byte, a symlink stays a symlink, and the previous content is copied to
  $XDG_STATE_HOME/context-lens/settings-backups/ first. Disconnect removes a file Connect created.`;

export async function connectCommand(verb: ConnectVerb, args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { 'dry-run': { type: 'boolean' } }, 1);
  // Bundled, __dirname is dist/, which holds cli.js and statusline.js.
  const commands = connectionCommands({ node: process.execPath, binDir: __dirname, platform: process.platform });
  const planned = await planConnection(verb, resolve(positionals[0] ?? process.cwd()), commands, mcpEntry({ node: process.execPath, cli: join(__dirname, 'cli.js') }));
  if (!planned.ok) throw inputError(planned.error.message);
  const plan = planned.value;
  if (!plan.settings.edit.ok) throw inputError(plan.settings.edit.error);
  for (const note of plan.notes) io.err.write(`${note}\n`);
  const changes = changesOf(plan);
  if (changes.length === 0) {
    io.out.write(verb === 'connect' ? `Already connected: ${plan.settings.file.path}\n` : `Not connected: ${plan.settings.file.path}\n`);
    return EXIT_OK;
  }
  for (const { file, text } of changes) io.out.write(createTwoFilesPatch(file.target, file.target, file.text ?? '', text, 'before', verb === 'connect' ? 'connected' : 'disconnected'));
  if (values['dry-run']) {
    io.out.write('Dry run: nothing written.\n');
    return EXIT_OK;
  }
  let failed: string | null = null;
  for (const { file, saved } of await saveConnection(plan, io.env)) {
    if (!saved.ok) {
      failed ??= saved.error.message;
      io.err.write(`Could not write ${file.target}: ${saved.error.message}\n`);
      continue;
    }
    io.out.write(saved.value.removed ? `Removed ${file.target} (Connect had created it)\n` : `Wrote ${file.target}\n`);
    if (saved.value.backup !== null) io.out.write(`The previous content is in ${saved.value.backup}\n`);
  }
  if (failed !== null) throw inputError(failed);
  return EXIT_OK;
}
