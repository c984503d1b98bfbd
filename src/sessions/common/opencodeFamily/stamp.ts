// What changes when OpenCode writes: the database's or its log's inode, size or time. Pollers
// compare stamps and read the session again only when it moved.
import { stat } from 'node:fs/promises';

async function fileStamp(path: string): Promise<string> {
  try {
    const stats = await stat(path);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return '-';
  }
}

export async function databaseStamp(db: string): Promise<string> {
  return `${await fileStamp(db)}|${await fileStamp(`${db}-wal`)}`;
}
