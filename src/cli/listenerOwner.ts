// Who listens on a loopback TCP port, before `ctxlens run --via` sends a person's requests (their
// API key in the headers) there. A live proxy that stopped without a word (a crashed window) leaves
// terminals pointing at its port, which any local user may take next; Node cannot ask who is at
// the other end of a TCP connection, but Linux lists every socket with its owner's uid in
// /proc/net/tcp and /proc/net/tcp6. Elsewhere there is no such list: the answer is "unknown".

import { readFileSync } from 'node:fs';

const LISTEN = '0A';
/** 127.0.0.1, 0.0.0.0, ::1, :: and ::ffff:127.0.0.1 as the kernel prints them (little-endian words). */
const LOOPBACK_OR_ANY = new Set([
  '0100007F',
  '00000000',
  '00000000000000000000000001000000',
  '00000000000000000000000000000000',
  '0000000000000000FFFF00000100007F',
]);

/** The uids listening on `port` in one /proc/net/tcp* text. */
export function listenersIn(text: string, port: number): number[] {
  const uids: number[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [address, hexPort] = (fields[1] ?? '').split(':');
    if (fields[3] !== LISTEN || hexPort === undefined || Number.parseInt(hexPort, 16) !== port) continue;
    if (!LOOPBACK_OR_ANY.has((address ?? '').toUpperCase())) continue;
    const uid = Number(fields[7]);
    if (Number.isInteger(uid)) uids.push(uid);
  }
  return uids;
}

/**
 * The uids listening on loopback `port`, or null where the system does not say (not Linux, /proc
 * not mounted). An empty list: nothing listens.
 */
export function loopbackListeners(port: number, files: readonly string[] = ['/proc/net/tcp', '/proc/net/tcp6']): number[] | null {
  let known = false;
  const uids: number[] = [];
  for (const file of files) {
    let text: string;
    try {
      // A few KiB on a workstation; a kernel file, not a person's.
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    known = true;
    uids.push(...listenersIn(text, port));
  }
  return known ? uids : null;
}
