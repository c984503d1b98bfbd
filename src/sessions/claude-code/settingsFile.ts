// Reading and writing the files Connect and Disconnect edit: a project's
// `.claude/settings.local.json` and its `.mcp.json`. No symbolic link is written through: a file or
// a `.claude` folder that is one is refused (common/workspaceFile.ts), at the plan and again just
// before the write, since a repository can point one anywhere. Every write is atomic and keeps the
// file's mode; the previous content is copied to a backup first. A file Connect created (and the
// `.claude` folder, if it made that too) is recorded, so Disconnect can remove it again instead of
// leaving `{}` behind; so is a blank file Connect filled, so Disconnect gives back its very bytes.
// What Connect creates is private: the folder 0700 and the file 0600 whatever the umask (settings
// may hold secrets).
import { chmod, mkdir, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeAtomically } from '../atomicWrite';
import { sha256Hex } from '../common/crypto';
import { failFromError, ok } from '../result';
import { READ_CAPS, readRegularText } from '../common/regularFile';
import { workspaceFile } from '../common/workspaceFile';
import type { Saved } from '../connection';
import type { Result } from '../types';
import { isEmptySettings, SETTINGS_FILE } from './connection';
import { hookEventsPath } from '../../contracts/hooks';

type Env = Readonly<Record<string, string | undefined>>;

export interface SettingsFile {
  /** The path asked for, as the person knows it. */
  readonly path: string;
  /** The file edited: `path` itself (a link on the way is refused, never followed). */
  readonly target: string;
  /** Its text, or null when there is no file. */
  readonly text: string | null;
}

export function settingsPath(projectFolder: string): string {
  return join(projectFolder, ...SETTINGS_FILE);
}

/** `$XDG_STATE_HOME/context-lens/settings-backups`: beside the hook events, outside the project (never committed). */
export function settingsBackupFolder(env: Env): string {
  return join(dirname(hookEventsPath(env)), 'settings-backups');
}

/** The project folder of a file Connect edits: the settings sit in its `.claude` folder, `.mcp.json` in it. */
export function projectOf(path: string): string {
  return basename(path) === SETTINGS_FILE[1] ? dirname(dirname(path)) : dirname(path);
}

/** `path` when Connect may write it: in its project, with no symbolic link on the way (else why not). */
export function writableSettings(path: string): Promise<Result<string>> {
  return workspaceFile(projectOf(path), path);
}

/** The backup copy and the created-file record of one file Connect edits, named after its project. */
function backupPaths(target: string, env: Env): { copy: string; created: string } {
  const name = basename(target);
  const project = projectOf(target);
  const stem = `${basename(project).replace(/[^\w.-]+/g, '_')}-${sha256Hex(target).slice(0, 12)}`;
  const folder = settingsBackupFolder(env);
  return { copy: join(folder, `${stem}.${name.replace(/^\./, '')}`), created: join(folder, `${stem}.created.json`) };
}

/** The file as it stands (a byte order mark kept, so a write gives it back): only a regular file under the settings cap. */
export async function readSettings(path: string): Promise<Result<SettingsFile>> {
  const text = await readRegularText(path, READ_CAPS.settings);
  return text.ok ? ok({ path, target: path, text: text.value }) : text;
}

/** Copies the text about to be replaced; private to the person (settings may hold secrets). */
async function backUp(file: SettingsFile, env: Env): Promise<Result<string | null>> {
  if (file.text === null) return ok(null);
  const { copy } = backupPaths(file.target, env);
  const folder = await makePrivateFolder(dirname(copy));
  if (!folder.ok) return folder;
  const written = await writeAtomically(copy, file.text, 0o600);
  return written.ok ? ok(copy) : written;
}

/** An existing file keeps its mode; a new one is the person's alone. */
async function write(file: SettingsFile, text: string): Promise<Result<void>> {
  const mode = await stat(file.target).then(
    (stats) => stats.mode & 0o777,
    () => 0o600,
  );
  return writeAtomically(file.target, text, mode);
}

/**
 * Creates `folder` 0700 (chmod after mkdir: a umask can only narrow the mode, but the folder's own
 * mode is what is promised). The error names the folder and the cause (a read-only disk is not
 * "no such file").
 */
async function makePrivateFolder(folder: string): Promise<Result<boolean>> {
  try {
    const made = await mkdir(folder, { recursive: true, mode: 0o700 });
    if (made !== undefined) await chmod(folder, 0o700);
    return ok(made !== undefined);
  } catch (error) {
    return failFromError(error, folder, 'create-folder');
  }
}

/** What Disconnect needs to know of a file Connect created or filled: whether it made the folder, and a blank text it replaced. */
interface CreatedRecord {
  madeFolder: boolean;
  /** The blank (empty or whitespace) text the file held before Connect, given back byte for byte. */
  blank?: string;
}

/** Writes what Connect made of the file: a backup of the old text first, or a record that the file is new. */
export async function saveConnected(file: SettingsFile, text: string, env: Env): Promise<Result<Saved>> {
  // Checked again now: a link may have appeared since the plan was shown.
  const writable = await writableSettings(file.target);
  if (!writable.ok) return writable;
  const backup = await backUp(file, env);
  if (!backup.ok) return backup;
  const blank = file.text !== null && file.text.trim() === '' ? file.text : undefined;
  if (file.text !== null && blank === undefined) {
    const written = await write(file, text);
    return written.ok ? ok({ backup: backup.value, removed: false }) : written;
  }
  const records = await makePrivateFolder(settingsBackupFolder(env));
  if (!records.ok) return records;
  const made = file.text === null ? await makePrivateFolder(dirname(file.target)) : ok(false);
  if (!made.ok) return made;
  const written = await write(file, text);
  if (!written.ok) return written;
  const record: CreatedRecord & { file: string } = { file: file.target, madeFolder: made.value, ...(blank === undefined ? {} : { blank }) };
  const recorded = await writeAtomically(backupPaths(file.target, env).created, `${JSON.stringify(record)}\n`, 0o600);
  return recorded.ok ? ok({ backup: backup.value, removed: false }) : recorded;
}

async function createdRecord(path: string): Promise<CreatedRecord | null> {
  // Our own record, in our private folder: read through the same guard all the same (it is small).
  const read = await readRegularText(path, READ_CAPS.ownRecord);
  if (!read.ok || read.value === null) return null;
  try {
    const record = JSON.parse(read.value) as { madeFolder?: unknown; blank?: unknown };
    return { madeFolder: record.madeFolder === true, ...(typeof record.blank === 'string' && record.blank.trim() === '' ? { blank: record.blank } : {}) };
  } catch {
    return null;
  }
}

/**
 * Writes what Disconnect made of the file. A file Connect created and that now holds nothing is
 * removed, with the `.claude` folder Connect made for it if nothing else is in there.
 */
export async function saveDisconnected(file: SettingsFile, text: string, env: Env): Promise<Result<Saved>> {
  const writable = await writableSettings(file.target);
  if (!writable.ok) return writable;
  const { created } = backupPaths(file.target, env);
  const record = await createdRecord(created);
  if (record !== null && isEmptySettings(text) && record.blank !== undefined) {
    // The file was blank before Connect: it gets its very bytes back, not `{}`.
    const written = await write(file, record.blank);
    if (!written.ok) return written;
    await unlink(created).catch(() => undefined);
    return ok({ backup: null, removed: false });
  }
  if (record !== null && isEmptySettings(text)) {
    try {
      await unlink(file.target);
    } catch (error) {
      return failFromError(error, file.target, 'remove');
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
