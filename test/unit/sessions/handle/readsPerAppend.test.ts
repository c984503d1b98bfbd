// The panel's reading of a followed session, counted at the file: per burst of appended lines the
// follower, the live context, the usage points and the calls (what the host asks on every change)
// read the appended bytes from the disk once, and nothing read before again.
import { DEMO_SESSION } from '../../../support/demoSession';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { claudeCodeAdapter } from '../../../../src/sessions/claude-code/adapter';
import { openSession } from '../../../../src/sessions/handle/open';
import { readSnapshot } from '../../../../src/host/context/liveSnapshot';
import { readCosts } from '../../../../src/host/context/costs';
import { pricesOf } from '../../../../src/host/context/costs';
import type { SessionHandle } from '../../../../src/sessions/port';
import { openRegular } from '../../../../src/sessions/result';
import { tempDir } from '../../../support/tempDir';

const DEMO = DEMO_SESSION;
/** What a check for a rewrite reads again of the bytes kept (tailBytes.ts). */
const SEAL_BYTES = 256;

/** Every `FileHandle.read` of this process while counting: descriptor and bytes. */
const reads: { fd: number; bytes: number }[] = [];
let restore: (() => void) | null = null;

before(async () => {
  const probe = await open(__filename);
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = proto.read;
  proto.read = async function (this: FileHandle, ...args: unknown[]) {
    const result = await (original as (...a: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>).apply(this, args);
    reads.push({ fd: this.fd, bytes: result.bytesRead });
    return result;
  } as FileHandle['read'];
  restore = () => {
    proto.read = original;
  };
});
after(() => restore?.());

/** Resolves on the handle's next change (the follower read what was appended). */
function nextChange(handle: SessionHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no change reported within 5 s')), 5_000);
    handle.on('contextChanged', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What the host does on every change of the followed session: the snapshot, then its costs. */
async function hostReads(handle: SessionHandle): Promise<void> {
  const snapshot = await readSnapshot(handle);
  assert.ok(snapshot.ok, snapshot.ok ? '' : snapshot.error.message);
  await readCosts(pricesOf({}).prices, handle, snapshot.value);
}

/** The recorded session cut after each response (a line with usage and a new message id): one turn per append. */
function turns(lines: readonly string[]): number[] {
  const cuts: number[] = [];
  let last: string | null = null;
  lines.forEach((line, index) => {
    const record = JSON.parse(line) as { type?: string; message?: { id?: string; usage?: unknown } };
    const id = record.type === 'assistant' && record.message?.usage !== undefined ? (record.message.id ?? null) : null;
    if (id !== null && id !== last) cuts.push(index + 1);
    if (id !== null) last = id;
  });
  return cuts;
}

describe('a followed session read through its handle', () => {
  it('reads only the appended bytes per append (plus the seal), where reading it anew reads its live context each time', async () => {
    process.env.CONTEXT_LENS_CACHE = tempDir('cl-reads-cache-');
    const lines = readFileSync(DEMO, 'utf8').trimEnd().split('\n');
    const cuts = turns(lines).filter((cut) => cut >= lines.length / 2);
    assert.ok(cuts.length >= 5, `${cuts.length} turns to append`);
    const path = join(tempDir('cl-reads-'), 'session.jsonl');
    writeFileSync(path, `${lines.slice(0, cuts[0]).join('\n')}\n`);
    const info = await claudeCodeAdapter.readSessionInfo(path);
    assert.ok(info.ok);
    const handle = openSession(claudeCodeAdapter, info.value);
    let appended = 0;
    try {
      const first = nextChange(handle);
      await handle.follow();
      await first;
      await hostReads(handle);
      // The descriptor every reader of the session shares (our own indexes are other files).
      const view = await openRegular(path);
      const fd = view.fd;
      await view.close();
      reads.length = 0;
      for (let k = 1; k < cuts.length; k++) {
        const text = `${lines.slice(cuts[k - 1], cuts[k]).join('\n')}\n`;
        const changed = nextChange(handle);
        appendFileSync(path, text);
        appended += Buffer.byteLength(text);
        await changed;
        await hostReads(handle);
      }
      const read = reads.reduce((sum, entry) => sum + (entry.fd === fd ? entry.bytes : 0), 0);
      const appends = cuts.length - 1;
      assert.ok(read <= appended + appends * SEAL_BYTES, `${read} bytes read for ${appended} appended over ${appends} appends`);
      assert.ok(read >= appended, `the appended bytes are read (${read} of ${appended})`);
    } finally {
      await handle.dispose();
    }

    // The same appends read as before the handle: each change reads the live context back from the end.
    const session = await claudeCodeAdapter.readSessionInfo(path);
    assert.ok(session.ok);
    reads.length = 0;
    for (let k = 1; k < cuts.length; k++) {
      const live = await claudeCodeAdapter.readLiveContext(session.value);
      assert.ok(live.ok);
    }
    const anew = reads.reduce((sum, entry) => sum + entry.bytes, 0);
    assert.ok(anew > 5 * appended, `reading anew reads ${anew} bytes for the same ${appended} appended`);
  });
});
