// `context-lens connect|disconnect [DIR]`: the VS Code command's settings edit from a terminal. The
// hooks run this very CLI (and its status line bundle beside it) with the Node that runs it now.
import { resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { connect, connectionCommands, disconnect, readSettingsText, settingsPath, writeSettingsText } from '../sessions/claude-code';
import { EXIT_OK, inputError, parse, type Io } from './io';

export const CONNECT_USAGE = `context-lens connect|disconnect [DIR] [--dry-run]
  Adds to (or removes from) DIR/.claude/settings.local.json (DIR defaults to the current folder)
  the pre-compact and session-start hooks and, when none is set, the status line, all running this
  CLI. Prints the change as a diff; --dry-run writes nothing. Other settings are never touched.`;

export async function connectCommand(verb: 'connect' | 'disconnect', args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { 'dry-run': { type: 'boolean' } }, 1);
  const path = settingsPath(resolve(positionals[0] ?? process.cwd()));
  const read = await readSettingsText(path);
  if (!read.ok) throw inputError(read.error.message);
  const before = read.value;
  // Bundled, __dirname is dist/, which holds cli.js and statusline.js.
  const commands = connectionCommands({ node: process.execPath, binDir: __dirname, platform: process.platform });
  const edit = (verb === 'connect' ? connect : disconnect)(before, commands);
  if (!edit.ok) throw inputError(edit.error);
  for (const note of edit.notes) io.err.write(`${note}\n`);
  if (!edit.changed) {
    io.out.write(verb === 'connect' ? `Already connected: ${path}\n` : `Not connected: ${path}\n`);
    return EXIT_OK;
  }
  io.out.write(createTwoFilesPatch(path, path, before ?? '', edit.text, 'before', verb === 'connect' ? 'connected' : 'disconnected'));
  if (values['dry-run']) {
    io.out.write('Dry run: nothing written.\n');
    return EXIT_OK;
  }
  const written = await writeSettingsText(path, edit.text);
  if (!written.ok) throw inputError(written.error.message);
  io.out.write(`Wrote ${path}\n`);
  return EXIT_OK;
}
