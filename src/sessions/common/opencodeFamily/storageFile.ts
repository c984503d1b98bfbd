// The family's JSON storage: before its database (1.2), OpenCode kept each session, message and part
// as a JSON file of its own, under `<data>/storage/{session/<project>,message/<session>,part/<message>}/`
// (0.5.x under `<data>/project/<project>/storage/session/{info,message,part}/`); 1.2 and later, and
// Kilo, still keep a few there (`session_diff/`, `migration`). None of these files is a session: read
// alone it is one message or one part. They are told by where they lie and by what they hold (one JSON
// object whose `id` is `ses_`/`msg_`/`prt_`…), so such a file is refused by name instead of being read
// as another agent's transcript.
import { basename, sep } from 'node:path';
import { ok, withFile } from '../../result';
import type { OpencodeFlavour } from './flavour';
import { parseJson, str } from './rows';

/** A storage file is a few hundred bytes to a few megabytes (a part holding a tool's whole output). */
const HEAD_BYTES = 1024 * 1024;
const KINDS = new Set(['session', 'message', 'part', 'session_diff', 'project', 'todo', 'share', 'session_share', 'migration']);
const ID = /^(ses|msg|prt)_[0-9A-Za-z]{8,64}$/;

/** The folder the storage folder is in (`opencode`, `kilo`), when `path` lies where the family's storage files do. */
function storageOwnerByPlace(path: string): string | null {
  const parts = path.split(sep);
  for (let at = parts.length - 2; at >= 1; at--) {
    if (parts[at] !== 'storage' || !KINDS.has(parts[at + 1] ?? '')) continue;
    const name = basename(path);
    if (!(name.endsWith('.json') || name === 'migration')) return null;
    // 0.5.x: <data>/project/<project id>/storage/…
    const owner = parts[at - 2] === 'project' ? parts[at - 3] : parts[at - 1];
    return owner ?? '';
  }
  return null;
}

/** Whether one JSON object is a storage record: a session, message or part by its id and the ids it points to. */
function isStorageRecord(record: Record<string, unknown>): boolean {
  const id = str(record.id);
  if (id === null || !ID.test(id)) return false;
  if (id.startsWith('ses_')) return typeof record.projectID === 'string' || typeof record.directory === 'string';
  return str(record.sessionID)?.startsWith('ses_') === true;
}

export interface StorageFile {
  /** The folder its storage folder is in (`opencode`, `kilo`); '' when it lies elsewhere (a copy). */
  readonly owner: string;
}

/** What `path` is if it is a file of the family's JSON storage; null for any other file. */
export async function storageFileOf(path: string): Promise<StorageFile | null> {
  const owner = storageOwnerByPlace(path);
  if (owner !== null) return { owner };
  if (!path.endsWith('.json')) return null;
  const read = await withFile(path, async (handle) => {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    const record =
      bytesRead < HEAD_BYTES
        ? parseJson(
            head
              .subarray(0, bytesRead)
              .toString('utf8')
              .replace(/^\uFEFF/, ''),
          )
        : null;
    return ok(record !== null && isStorageRecord(record));
  });
  return read.ok && read.value ? { owner: '' } : null;
}

/** The one-line refusal for a storage file of `flavour`'s. */
export function storageRefusal(flavour: OpencodeFlavour, path: string): string {
  return `${path} is ${flavour.storageFile}, not a session this reads: it holds one record of its store (a session's, a message's, a part's or its own bookkeeping). ${flavour.name}'s sessions are read from ${flavour.sessionStore}; \`ctxlens sessions --agent ${flavour.id}\` lists them.`;
}
