// `context-lens connect|disconnect [DIR]`: the VS Code command's settings edit from a terminal. The
// hooks run this very CLI (and its status line bundle beside it) with the Node that runs it now.
import { resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { connect, connectionCommands, disconnect, readSettings, saveConnected, saveDisconnected, settingsPath } from '../sessions/claude-code';
import { EXIT_OK, inputError, parse, type Io } from './io';

export const CONNECT_USAGE = `context-lens connect|disconnect [DIR] [--dry-run]
  Adds to (or removes from) DIR/.claude/settings.local.json (DIR defaults to the current folder)
  the pre-compact and session-start hooks and, when none is set, the status line, all running this
  CLI. Prints the change as a diff; --dry-run writes nothing. Only those entries change: the rest of
  the file stays byte for byte, a symlink stays a symlink, and the previous content is copied to
  $XDG_STATE_HOME/context-lens/settings-backups/ first. Disconnect removes a file Connect created.`;

export async function connectCommand(verb: 'connect' | 'disconnect', args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { 'dry-run': { type: 'boolean' } }, 1);
  const path = settingsPath(resolve(positionals[0] ?? process.cwd()));
  const read = await readSettings(path);
  if (!read.ok) throw inputError(read.error.message);
  const file = read.value;
  // Bundled, __dirname is dist/, which holds cli.js and statusline.js.
  const commands = connectionCommands({ node: process.execPath, binDir: __dirname, platform: process.platform });
  const edit = (verb === 'connect' ? connect : disconnect)(file.text, commands);
  if (!edit.ok) throw inputError(edit.error);
  for (const note of edit.notes) io.err.write(`${note}\n`);
  if (!edit.changed) {
    io.out.write(verb === 'connect' ? `Already connected: ${path}\n` : `Not connected: ${path}\n`);
    return EXIT_OK;
  }
  io.out.write(createTwoFilesPatch(file.target, file.target, file.text ?? '', edit.text, 'before', verb === 'connect' ? 'connected' : 'disconnected'));
  if (values['dry-run']) {
    io.out.write('Dry run: nothing written.\n');
    return EXIT_OK;
  }
  const saved = await (verb === 'connect' ? saveConnected : saveDisconnected)(file, edit.text, io.env);
  if (!saved.ok) throw inputError(saved.error.message);
  io.out.write(saved.value.removed ? `Removed ${file.target} (Connect had created it)\n` : `Wrote ${file.target}\n`);
  if (saved.value.backup !== null) io.out.write(`The previous content is in ${saved.value.backup}\n`);
  return EXIT_OK;
}
