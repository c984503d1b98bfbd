// Reading and writing the files Connect and Disconnect edit: a project's
// `.claude/settings.local.json` and its `.mcp.json`. A symlinked file is edited where it points (the
// link stays a link); every write is atomic and keeps the file's mode; the previous content is
// copied to a backup first. A file Connect created (and the `.claude` folder, if it made that too)
// is recorded, so Disconnect can remove it again instead of leaving `{}` behind.
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { writeAtomically } from '../atomicWrite';
import { fail, failFromError, ok } from '../result';
import type { Saved } from '../connection';
import type { Result } from '../types';
import { isEmptySettings, SETTINGS_FILE } from './connection';
import { hookEventsPath } from '../../contracts/hooks';

type Env = Readonly<Record<string, string | undefined>>;

export interface SettingsFile {
  /** The path asked for, as the person knows it. */
  readonly path: string;
  /** The file actually edited: `path` with every symbolic link followed. */
  readonly target: string;
  /** Its text, or null when there is no file. */
  readonly text: string | null;
}

/** A chain longer than this is a loop in all but name (Linux's own limit is 40). */
const MAX_LINKS = 40;

export function settingsPath(projectFolder: string): string {
  return join(projectFolder, ...SETTINGS_FILE);
}

/** `$XDG_STATE_HOME/context-lens/settings-backups`: beside the hook events, outside the project (never committed). */
export function settingsBackupFolder(env: Env): string {
  return join(dirname(hookEventsPath(env)), 'settings-backups');
}

/** The backup copy and the created-file record of one file Connect edits, named after its project. */
function backupPaths(target: string, env: Env): { copy: string; created: string } {
  const name = basename(target);
  // The settings sit in the project's `.claude` folder, `.mcp.json` in the project folder itself.
  const project = name === SETTINGS_FILE[1] ? dirname(dirname(target)) : dirname(target);
  const stem = `${basename(project).replace(/[^\w.-]+/g, '_')}-${createHash('sha256').update(target).digest('hex').slice(0, 12)}`;
  const folder = settingsBackupFolder(env);
  return { copy: join(folder, `${stem}.${name.replace(/^\./, '')}`), created: join(folder, `${stem}.created.json`) };
}

/** Follows symbolic links to the file they name, even one that does not exist yet. */
async function followLinks(path: string): Promise<Result<string>> {
  let current = path;
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    try {
      const stats = await lstat(current);
      if (!stats.isSymbolicLink()) return stats.isFile() ? ok(current) : fail('io', `Not a regular file: ${current}`, current);
      current = resolve(dirname(current), await readlink(current));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? ok(current) : failFromError(error, current);
    }
  }
  return fail('io', `Too many symbolic links: ${path}`, path);
}

export async function readSettings(path: string): Promise<Result<SettingsFile>> {
  const target = await followLinks(path);
  if (!target.ok) return target;
  try {
    return ok({ path, target: target.value, text: await readFile(target.value, 'utf8') });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? ok({ path, target: target.value, text: null }) : failFromError(error, target.value);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Copies the text about to be replaced; private to the person (settings may hold secrets). */
async function backUp(file: SettingsFile, env: Env): Promise<Result<string | null>> {
  if (file.text === null) return ok(null);
  const { copy } = backupPaths(file.target, env);
  try {
    await mkdir(dirname(copy), { recursive: true, mode: 0o700 });
  } catch (error) {
    return failFromError(error, dirname(copy));
  }
  const written = await writeAtomically(copy, file.text, 0o600);
  return written.ok ? ok(copy) : written;
}

async function write(file: SettingsFile, text: string): Promise<Result<void>> {
  const mode = await stat(file.target).then((stats) => stats.mode & 0o777, () => 0o644);
  return writeAtomically(file.target, text, mode);
}

/** Writes what Connect made of the file: a backup of the old text first, or a record that the file is new. */
export async function saveConnected(file: SettingsFile, text: string, env: Env): Promise<Result<Saved>> {
  const backup = await backUp(file, env);
  if (!backup.ok) return backup;
  if (file.text !== null) {
    const written = await write(file, text);
    return written.ok ? ok({ backup: backup.value, removed: false }) : written;
  }
  const folder = dirname(file.target);
  const madeFolder = !(await exists(folder));
  try {
    await mkdir(folder, { recursive: true });
    await mkdir(settingsBackupFolder(env), { recursive: true, mode: 0o700 });
  } catch (error) {
    return failFromError(error, folder);
  }
  const written = await write(file, text);
  if (!written.ok) return written;
  const recorded = await writeAtomically(backupPaths(file.target, env).created, `${JSON.stringify({ file: file.target, madeFolder })}\n`, 0o600);
  return recorded.ok ? ok({ backup: null, removed: false }) : recorded;
}

async function createdRecord(path: string): Promise<{ madeFolder: boolean } | null> {
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as { madeFolder?: unknown };
    return { madeFolder: record.madeFolder === true };
  } catch {
    return null;
  }
}

/**
 * Writes what Disconnect made of the file. A file Connect created and that now holds nothing is
 * removed, with the `.claude` folder Connect made for it if nothing else is in there.
 */
export async function saveDisconnected(file: SettingsFile, text: string, env: Env): Promise<Result<Saved>> {
  const { created } = backupPaths(file.target, env);
  const record = await createdRecord(created);
  if (record !== null && isEmptySettings(text)) {
    try {
      await unlink(file.target);
    } catch (error) {
      return failFromError(error, file.target);
    }
    if (record.madeFolder) await rmdir(dirname(file.target)).catch(() => undefined);
    await unlink(created).catch(() => undefined);
    return ok({ backup: null, removed: true });
  }
  const backup = await backUp(file, env);
  if (!backup.ok) return backup;
  const written = await write(file, text);
  if (!written.ok) return written;
  // The connection is over: the file is the person's from here on.
  await unlink(created).catch(() => undefined);
  return ok({ backup: backup.value, removed: false });
}
