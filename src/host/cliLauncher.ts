// The `ctxlens` command on the person's PATH, as VS Code puts its own `code` there: a small sh
// launcher in a user bin folder that runs the extension's bundled CLI with the runtime of the
// extension host (VS Code's own Node, or Electron run as Node). It is marked as ours: a file of that
// name we did not write is never replaced nor removed. Free of `vscode`, so it is tested directly.
import { rm, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { Result } from '../base/result';
import { shellWord } from '../base/shell';
import { writeAtomically } from '../sessions/atomicWrite';
import { READ_CAPS, readRegularText } from '../sessions/common/regularFile';
import { CLI_COMMAND } from '../sessions/connection';

/** The command's name (`context-lens` is another project's on npm); Connect's commands name it too. */
export const CLI_NAME = CLI_COMMAND;
/** The line that says a launcher is ours, whatever else in it changed. */
const MARK = '# context-lens-launcher: written by the Context Lens extension';

export interface LauncherRuntime {
  /** The executable that runs the CLI: Node, or VS Code's Electron. */
  readonly execPath: string;
  /** Electron needs ELECTRON_RUN_AS_NODE=1 to run a script as Node does. */
  readonly isElectron: boolean;
  /** The bundled `dist/cli.js`. */
  readonly cli: string;
}

export interface LauncherWhere {
  readonly home: string;
  /** The PATH the extension host sees (a login shell's, as a rule). */
  readonly pathEnv: string;
  readonly platform: NodeJS.Platform;
}

/** `onPath` false: the folder is not on PATH; the person is told how to add it. */
export type LauncherOutcome = Result<{ readonly path: string; readonly onPath: boolean; readonly changed: boolean }>;

/**
 * `ctxlens statusline` runs the status line's own small bundle beside cli.js (Claude Code starts it
 * on every redraw), except for its --help, which that bundle does not answer.
 */
export function launcherScript(runtime: LauncherRuntime): string {
  const env = runtime.isElectron ? 'ELECTRON_RUN_AS_NODE=1 ' : '';
  return [
    '#!/bin/sh',
    MARK,
    `# "Context Lens: Uninstall '${CLI_NAME}' command from PATH" removes it; the extension rewrites it when it moves.`,
    `script=${shellWord(runtime.cli)}`,
    `if [ "$1" = statusline ] && [ "$2" != --help ] && [ "$2" != -h ]; then shift; script=${shellWord(join(dirname(runtime.cli), 'statusline.js'))}; fi`,
    `${env}exec ${shellWord(runtime.execPath)} "$script" "$@"`,
    '',
  ].join('\n');
}

export const isOurLauncher = (text: string): boolean => text.split('\n', 3).includes(MARK);

/** The user bin folders a launcher may go to, in order: the first on PATH wins, else the first. */
export function binFolders(home: string): string[] {
  return [join(home, '.local', 'bin'), join(home, 'bin')];
}

/** Where the launcher goes, and whether that folder is on PATH. */
export function launcherPlace(where: LauncherWhere): { folder: string; onPath: boolean } {
  const onPath = new Set(
    where.pathEnv
      .split(delimiter)
      .filter((folder) => folder !== '')
      .map((folder) => resolve(folder)),
  );
  const folders = binFolders(where.home);
  const found = folders.find((folder) => onPath.has(folder));
  return { folder: found ?? (folders[0] as string), onPath: found !== undefined };
}

/** What is at the launcher's place. */
type AtPlace =
  | { readonly kind: 'none' }
  | { readonly kind: 'ours'; readonly text: string }
  | { readonly kind: 'foreign' }
  | { readonly kind: 'unreadable'; readonly error: string };

/**
 * The file at `path`, read as any file a person's folder holds: a FIFO or a device there must not
 * hang the extension host, and a big program of that name is not ours (ours is a few hundred bytes).
 */
async function launcherAt(path: string): Promise<AtPlace> {
  const read = await readRegularText(path, READ_CAPS.marker);
  // Something there that is too big, not a regular file or a symlink loop is not ours; a file we may not read is unknown.
  if (!read.ok) return read.error.code === 'permission-denied' ? { kind: 'unreadable', error: read.error.message } : { kind: 'foreign' };
  if (read.value === null) return { kind: 'none' };
  return isOurLauncher(read.value) ? { kind: 'ours', text: read.value } : { kind: 'foreign' };
}

/** Writes (or rewrites) our launcher; refuses when a file of that name is someone else's. */
export async function installLauncher(runtime: LauncherRuntime, where: LauncherWhere): Promise<LauncherOutcome> {
  if (where.platform === 'win32')
    return { ok: false, error: `a '${CLI_NAME}' command in PATH is not offered on Windows yet: run the CLI with node "${runtime.cli}"` };
  const { folder, onPath } = launcherPlace(where);
  const path = join(folder, CLI_NAME);
  const script = launcherScript(runtime);
  try {
    const before = await launcherAt(path);
    if (before.kind === 'foreign') return { ok: false, error: `${path} exists and was not written by Context Lens: it is left as it is` };
    if (before.kind === 'unreadable') return { ok: false, error: before.error };
    if (before.kind === 'ours' && before.text === script) return { ok: true, value: { path, onPath, changed: false } };
    await mkdir(folder, { recursive: true, mode: 0o755 });
    const written = await writeAtomically(path, script, 0o755);
    return written.ok ? { ok: true, value: { path, onPath, changed: true } } : { ok: false, error: written.error.message };
  } catch (error) {
    return { ok: false, error: `cannot write ${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Removes our launcher from every folder it may be in; a file of that name we did not write stays. */
export async function uninstallLauncher(where: LauncherWhere): Promise<{ removed: string[]; foreign: string[] }> {
  const removed: string[] = [];
  const foreign: string[] = [];
  for (const folder of binFolders(where.home)) {
    const path = join(folder, CLI_NAME);
    const found = await launcherAt(path);
    if (found.kind === 'foreign') foreign.push(path);
    else if (found.kind === 'ours') {
      await rm(path, { force: true });
      removed.push(path);
    }
  }
  return { removed, foreign };
}

/** After an update the bundled CLI moved: an installed launcher of ours is rewritten; none is never created. */
export async function refreshLauncher(runtime: LauncherRuntime, where: LauncherWhere): Promise<boolean> {
  const path = join(launcherPlace(where).folder, CLI_NAME);
  const found = await launcherAt(path);
  if (found.kind !== 'ours' || found.text === launcherScript(runtime)) return false;
  const outcome = await installLauncher(runtime, where);
  return outcome.ok && outcome.value.changed;
}

/** Our launcher is installed in a folder on PATH: Connect's commands may name it instead of a Node.js. */
export async function launcherOnPath(where: LauncherWhere): Promise<boolean> {
  const { folder, onPath } = launcherPlace(where);
  return onPath && (await launcherAt(join(folder, CLI_NAME))).kind === 'ours';
}

/** Where the host runs from, for the launcher. */
export function hostWhere(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): LauncherWhere {
  return { home: env.HOME ?? homedir(), pathEnv: env.PATH ?? '', platform };
}
