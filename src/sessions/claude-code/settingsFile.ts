// Reading and writing a project's `.claude/settings.local.json` for Connect and Disconnect: a
// missing file reads as null, and a write is atomic and keeps the mode the person gave the file.
import { mkdir, readFile, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeAtomically } from '../atomicWrite';
import { failFromError, ok } from '../result';
import type { Result } from '../types';
import { SETTINGS_FILE } from './connection';

export function settingsPath(projectFolder: string): string {
  return join(projectFolder, ...SETTINGS_FILE);
}

export async function readSettingsText(path: string): Promise<Result<string | null>> {
  try {
    return ok(await readFile(path, 'utf8'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? ok(null) : failFromError(error, path);
  }
}

export async function writeSettingsText(path: string, text: string): Promise<Result<void>> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    return failFromError(error, dirname(path));
  }
  const mode = await stat(path).then((stats) => stats.mode & 0o777, () => 0o644);
  return writeAtomically(path, text, mode);
}

export async function removeSettingsFile(path: string): Promise<Result<void>> {
  try {
    await unlink(path);
    return ok(undefined);
  } catch (error) {
    return failFromError(error, path);
  }
}
