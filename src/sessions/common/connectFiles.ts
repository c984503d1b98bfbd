// Reading and writing the files an agent's Connect edits in a workspace (Codex's `.codex/hooks.json`
// and `.codex/config.toml`, Gemini's `.gemini/settings.json`, OpenCode's plugin file): the rules the
// Claude Code settings follow, for any agent. No symbolic link is written through (workspaceFile.ts),
// at the plan and again just before the write; every write is atomic and keeps the file's mode; the
// previous content is copied to a private backup first. A file Connect creates is recorded, so
// Disconnect removes it again (with the folder Connect made for it, if empty), instead of leaving an
// empty shell: with the person's own files, Disconnect gives back the very bytes.
import { chmod, mkdir, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hookEventsPath } from '../../contracts/hooks';
import { writeAtomically } from '../atomicWrite';
import type { ConnectionPlan, ConnectVerb, FileChange, Saved, SavedChange } from '../connection';
import { failFromError, ok } from '../result';
import type { Result } from '../types';
import { sha256Hex } from './crypto';
import { READ_CAPS, readRegularText } from './regularFile';
import { workspaceFile } from './workspaceFile';

type Env = Readonly<Record<string, string | undefined>>;

/** A file as it stands in the workspace: null text when there is none. */
export interface WorkspaceText {
  readonly path: string;
  readonly text: string | null;
}

/** The file when Connect may write it (in the workspace, no link on the way) and it is a regular file under the cap. */
export async function readWorkspaceText(workspace: string, path: string): Promise<Result<WorkspaceText>> {
  const writable = await workspaceFile(workspace, path);
  if (!writable.ok) return writable;
  const text = await readRegularText(path, READ_CAPS.settings);
  return text.ok ? ok({ path, text: text.value }) : text;
}

/** One edit of a file's text (a file Connect created and left empty, or holding only `{}`, is removed by Disconnect). */
export type TextEdit = { readonly ok: true; readonly text: string; readonly notes?: readonly string[] } | { readonly ok: false; readonly error: string };

/** The plan for a set of files edited independently; the first refusal stops the whole edit (nothing is written). */
export function planOf(
  verb: ConnectVerb,
  settingsPath: string,
  edits: readonly { readonly file: WorkspaceText; readonly edit: TextEdit }[],
  notes: readonly string[] = [],
): ConnectionPlan {
  const refused = edits.find(({ edit }) => !edit.ok);
  if (refused !== undefined && !refused.edit.ok)
    return { verb, settingsPath, refused: { message: refused.edit.error, path: refused.file.path }, changes: [], notes };
  const changes: FileChange[] = edits.flatMap(({ file, edit }) =>
    edit.ok && edit.text !== (file.text ?? '') ? [{ path: file.path, target: file.path, before: file.text, after: edit.text }] : [],
  );
  return { verb, settingsPath, refused: null, changes, notes: [...notes, ...edits.flatMap(({ edit }) => (edit.ok ? (edit.notes ?? []) : []))] };
}

/** The outermost folder Connect made for a file, from its record. */
function madeFromOf(record: string): string | null {
  try {
    const value = (JSON.parse(record) as { madeFrom?: unknown }).madeFrom;
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

const backupFolder = (env: Env): string => join(dirname(hookEventsPath(env)), 'settings-backups');

function backupPaths(workspace: string, target: string, env: Env): { copy: string; created: string } {
  const stem = `${basename(workspace).replace(/[^\w.-]+/g, '_')}-${sha256Hex(target).slice(0, 12)}`;
  return { copy: join(backupFolder(env), `${stem}.${basename(target).replace(/^\./, '')}`), created: join(backupFolder(env), `${stem}.created.json`) };
}

/** Creates `folder` (and its parents) private; the first folder it had to make, or null when it was there. */
async function privateFolder(folder: string): Promise<Result<string | null>> {
  try {
    const made = await mkdir(folder, { recursive: true, mode: 0o700 });
    if (made !== undefined) await chmod(folder, 0o700);
    return ok(made ?? null);
  } catch (error) {
    return failFromError(error, folder, 'create-folder');
  }
}

async function write(target: string, text: string): Promise<Result<void>> {
  const mode = await stat(target).then(
    (stats) => stats.mode & 0o777,
    () => 0o600,
  );
  return writeAtomically(target, text, mode);
}

/** What is left of a file Connect created once our entries are out: nothing, or an empty JSON object. */
const isShell = (text: string): boolean => /^\s*(?:\{\s*\})?\s*$/.test(text);

async function saveOne(workspace: string, verb: ConnectVerb, change: FileChange, env: Env, newFolders: ReadonlySet<string>): Promise<Result<Saved>> {
  const writable = await workspaceFile(workspace, change.target);
  if (!writable.ok) return writable;
  const { copy, created } = backupPaths(workspace, change.target, env);
  const records = await privateFolder(dirname(copy));
  if (!records.ok) return records;
  let backup: string | null = null;
  if (change.before !== null) {
    const copied = await writeAtomically(copy, change.before, 0o600);
    if (!copied.ok) return copied;
    backup = copy;
  }
  if (verb === 'disconnect') {
    const record = await readRegularText(created, READ_CAPS.ownRecord);
    const madeFrom = record.ok && record.value !== null ? madeFromOf(record.value) : null;
    if (record.ok && record.value !== null && isShell(change.after)) {
      // Connect created this file and nothing of the person's is in it: it goes, with the folder Connect made.
      try {
        await unlink(change.target);
      } catch (error) {
        return failFromError(error, change.target, 'remove');
      }
      // The folders Connect made for it go too, innermost first, each only when empty.
      if (madeFrom !== null) {
        for (let folder = dirname(change.target); folder.startsWith(madeFrom); folder = dirname(folder)) {
          if (
            !(await rmdir(folder).then(
              () => true,
              () => false,
            ))
          )
            break;
        }
      }
      await unlink(created).catch(() => undefined);
      return ok({ backup, removed: true });
    }
    const written = await write(change.target, change.after);
    return written.ok ? ok({ backup, removed: false }) : written;
  }
  const made = change.before === null ? await privateFolder(dirname(change.target)) : ok(null);
  if (!made.ok) return made;
  // Two files may share the folder Connect makes: each records it, so whichever goes last takes it along.
  const madeFrom = made.value ?? (newFolders.has(dirname(change.target)) ? dirname(change.target) : null);
  const written = await write(change.target, change.after);
  if (!written.ok) return written;
  if (change.before !== null) return ok({ backup, removed: false });
  const recorded = await writeAtomically(created, `${JSON.stringify({ file: change.target, madeFrom })}\n`, 0o600);
  return recorded.ok ? ok({ backup, removed: false }) : recorded;
}

/** Writes every change of the plan (backups first); each file's result on its own. */
export async function saveChanges(workspace: string, plan: ConnectionPlan, env: Env): Promise<SavedChange[]> {
  const folders = [...new Set(plan.changes.map((change) => dirname(change.target)))];
  const newFolders = new Set(
    (
      await Promise.all(
        folders.map(async (folder) =>
          (await stat(folder).then(
            () => true,
            () => false,
          ))
            ? []
            : [folder],
        ),
      )
    ).flat(),
  );
  const results: SavedChange[] = [];
  for (const change of plan.changes) results.push({ change, saved: await saveOne(workspace, plan.verb, change, env, newFolders) });
  return results;
}
