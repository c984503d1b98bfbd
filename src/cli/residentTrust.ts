// What a resident reader's client checks before it sends anything (contracts/resident.ts). The
// socket is named by a variable any process can set, and in a folder someone else may have made:
// whoever answers on it would get the command line, the working folder and part of the
// environment, and would print what it likes in the person's terminal. So the client asks only a
// socket in a folder of its own user's, closed to everyone else and not a link, that is itself
// the user's, and whose server then proves it can read the key file beside it (Node cannot ask the
// kernel who is at the other end of a Unix socket). Synchronous and dependency-free: this runs in
// the loader, before the CLI is loaded.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { notPrivate, residentKeyPath, socketPathFits, SOCKET_PATH_MAX_BYTES, type Place } from '../contracts/resident';

/** The key to expect in the server's hello; or why not to ask (`hostile`: worth telling the person). */
export type Trust = { key: string } | { reason: string; hostile: boolean };

/** A key is 64 hex characters; a key file of more is not one. */
const KEY_MAX_BYTES = 256;

export function trustedKey(socketPath: string): Trust {
  const uid = process.getuid?.();
  if (uid === undefined) return { reason: 'no Unix user here', hostile: false };
  if (!isAbsolute(socketPath)) return { reason: 'the socket path is not absolute', hostile: true };
  if (!socketPathFits(socketPath)) return { reason: `the socket path is longer than ${SOCKET_PATH_MAX_BYTES} bytes`, hostile: true };
  const folder = dirname(socketPath);
  const folderStats = lstatOrNull(folder);
  if (folderStats === null) return { reason: `no folder ${folder}`, hostile: false };
  const folderProblem = notPrivate(folderStats, uid, 'folder');
  if (folderProblem !== undefined) return { reason: `${folder} ${folderProblem}`, hostile: true };
  const socketStats = lstatOrNull(socketPath);
  if (socketStats === null) return { reason: 'no socket', hostile: false };
  if (!socketStats.isSocket()) return { reason: `${socketPath} is not a socket`, hostile: true };
  if (socketStats.uid !== uid) return { reason: `${socketPath} belongs to user ${socketStats.uid}`, hostile: true };
  return readKey(residentKeyPath(socketPath), uid);
}

function readKey(path: string, uid: number): Trust {
  let fd: number;
  try {
    // Not through a link: the file itself must be checked, not what it points at.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? { reason: 'no key file (a reader still starting, or one that was killed)', hostile: false }
      : { reason: `${path}: ${code ?? String(error)}`, hostile: true };
  }
  try {
    const stats = fstatSync(fd);
    const problem = notPrivate(stats, uid, 'file');
    if (problem !== undefined) return { reason: `${path} ${problem}`, hostile: true };
    if (stats.size === 0 || stats.size > KEY_MAX_BYTES) return { reason: `${path} is not a key`, hostile: true };
    const buffer = Buffer.alloc(stats.size);
    const read = readSync(fd, buffer, 0, stats.size, 0);
    return { key: buffer.toString('utf8', 0, read) };
  } finally {
    closeSync(fd);
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** This process's view of the file system (contracts/resident.ts, Place); empty where not known. */
export function ownPlace(): Place {
  let mnt = '';
  try {
    mnt = readlinkSync('/proc/self/ns/mnt');
  } catch {
    // Not Linux, or no /proc: the root folder still tells a chroot apart.
  }
  let root = '';
  try {
    const stats = statSync('/');
    root = `${stats.dev}:${stats.ino}`;
  } catch {
    // Nothing more to compare.
  }
  return { mnt, root };
}
