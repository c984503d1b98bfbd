// Which sessions are forks Context Lens wrote, and of what: OpenCode's rows have no place for it, so
// beside each fork's import file (`<database folder>/context-lens/<fork id>.json`) a note
// `<fork id>.fork.json` names the source session and its title. Listing reads the notes once.
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeNewAtomically } from '../../atomicWrite';
import { READ_CAPS, readRegularText } from '../regularFile';
import type { Result, SessionInfo } from '../../types';
import { obj, str } from './rows';

export type ForkOf = NonNullable<SessionInfo['forkOf']>;

const NOTE = /^(ses_[0-9A-Za-z]+)\.fork\.json$/;

export const forkFolderOf = (db: string): string => join(dirname(db), 'context-lens');

export function writeForkNote(folder: string, forkId: string, forkOf: ForkOf): Promise<Result<void>> {
  return writeNewAtomically(join(folder, `${forkId}.fork.json`), `${JSON.stringify({ forkOf })}\n`);
}

/** The fork notes of a database's folder, by fork id (none when there is no folder). */
export async function readForkNotes(db: string): Promise<Map<string, ForkOf>> {
  const folder = forkFolderOf(db);
  const notes = new Map<string, ForkOf>();
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const id = NOTE.exec(name)?.[1];
    if (id === undefined) continue;
    // The folder sits beside the agent's database, where anyone who can write there can put anything.
    const read = await readRegularText(join(folder, name), READ_CAPS.ownRecord);
    if (!read.ok || read.value === null) continue;
    try {
      const forkOf = obj(obj(JSON.parse(read.value))?.forkOf);
      if (forkOf !== null) notes.set(id, { sessionId: str(forkOf.sessionId), title: str(forkOf.title) });
    } catch {
      // A note we cannot read is no note: the session shows as an ordinary one.
    }
  }
  return notes;
}
