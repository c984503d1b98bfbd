// The working folder as agents name it: they resolve symlinks and write Unicode in NFC before they
// file a session under it, so a workspace opened through a symlink still finds its sessions.
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';

/** Resolves symlinks and normalises to NFC; a folder that does not exist (yet) is only resolved. */
export async function canonicalCwd(path: string): Promise<string> {
  try {
    return (await realpath(path)).normalize('NFC');
  } catch {
    return resolve(path).normalize('NFC');
  }
}
