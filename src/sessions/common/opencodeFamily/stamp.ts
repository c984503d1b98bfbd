// What changes when OpenCode writes: the database's or its log's inode, size or time. Pollers
// compare stamps and read the session again only when it moved.
import { filesStamp } from '../pollingFollower';

export function databaseStamp(db: string): Promise<string> {
  return filesStamp([db, `${db}-wal`]);
}
