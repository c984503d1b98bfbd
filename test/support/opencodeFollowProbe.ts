// The panel's reading of a followed OpenCode session, as its own process (bundled by the test like
// the extension is, and run under the shipped runtimes): the host's path, not a shortcut — the
// registry's adapter, `openSession` (the handle SessionService keeps), its follow, and on each change
// the reads ContextModel makes (readSnapshot: the live context, the engine's context, its breakdown;
// readCosts: the calls and their costs). One JSON line on stdout per change:
//   { usedTokens, lastRef, doneAt, bytesRead, reads, cpuMs, maxRssMiB }
// doneAt is performance.timeOrigin + performance.now() when the host's reads of the change were done;
// bytesRead counts every byte read from a file (fs.readSync and FileHandle reads) since the line before,
// cpuMs the process's CPU time (user + system) since then.
// Usage: node probe.js <database> <session id>; ends when stdin closes.
import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import { open } from 'node:fs/promises';
import { adapterOf } from '../../src/sessions/agents';
import { openSession } from '../../src/sessions/handle/open';
import { readSnapshot } from '../../src/host/context/liveSnapshot';
import { readCosts } from '../../src/host/context/costs';
import { BUNDLED_PRICES, indexPrices } from '../../src/pricing';

let bytesRead = 0;
let reads = 0;
let cpu = process.cpuUsage();

/** Counts what every file read returns: the page reader's readSync, the held files' FileHandle reads. */
async function countReads(): Promise<void> {
  // The module object itself (the bundle's imports of node:fs read its properties at each call).
  const fs = createRequire(__filename)('node:fs') as typeof Fs;
  const readSync = fs.readSync;
  fs.readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const got = readSync(...args);
    bytesRead += got;
    reads++;
    return got;
  }) as typeof fs.readSync;
  const probe = await open(process.execPath, 'r');
  const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<{ bytesRead: number }> };
  await probe.close();
  const read = prototype.read;
  prototype.read = async function (this: unknown, ...args: unknown[]) {
    const result = await read.apply(this, args);
    bytesRead += result.bytesRead;
    reads++;
    return result;
  };
}

function cpuSince(): number {
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const [db, sessionId] = process.argv.slice(2);
  if (db === undefined || sessionId === undefined) throw new Error('usage: probe <database> <session id>');
  await countReads();
  const adapter = adapterOf('opencode');
  const info = await adapter.readSessionInfo(`${db}#${sessionId}`);
  if (!info.ok) throw new Error(info.error.message);
  const prices = indexPrices(BUNDLED_PRICES);
  const handle = openSession(adapter, info.value);
  // The host's reads, one at a time and again after one that a change arrived during (readScheduler.ts).
  let reading = false;
  let again = false;
  const hostReads = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const snapshot = await readSnapshot(handle);
      if (!snapshot.ok) throw new Error(snapshot.error.message);
      await readCosts(prices, handle, snapshot.value);
      const entries = snapshot.value.live.entries;
      process.stdout.write(
        `${JSON.stringify({
          usedTokens: snapshot.value.live.fill.usedTokens,
          lastRef: entries[entries.length - 1]?.uuids[0] ?? null,
          doneAt: performance.timeOrigin + performance.now(),
          bytesRead,
          reads,
          cpuMs: cpuSince(),
          maxRssMiB: process.resourceUsage().maxRSS / 1024,
        })}\n`,
      );
      bytesRead = 0;
      reads = 0;
    } finally {
      reading = false;
    }
    if (again) {
      again = false;
      await hostReads();
    }
  };
  handle.on('contextChanged', () => void hostReads().catch((error: unknown) => process.stderr.write(`${String(error)}\n`)));
  handle.on('diagnostic', (diagnostic) => process.stderr.write(`diagnostic: ${diagnostic.message}\n`));
  await handle.follow();
  process.stdin.resume();
  process.stdin.on('end', () => void handle.dispose().then(() => process.exit(0)));
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
