// A followed OpenCode database's reads keep what they read (opencodeStore/keptReads.ts): the log's
// scan goes on from its last commit, pages are kept by where they came from. Checked against
// SQLite's rows (sql.js) after each of a run of commits, a rolled-back tail overwritten, a
// checkpoint that rewrote the file, and a restarted log; and the scan's resumption against a fresh
// scan over random points where the log was cut (a frame half written). One session's row and its
// children come through the id and parent indexes, as a scan finds them.
import assert from 'node:assert/strict';
import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { keepReads } from '../../../../src/sessions/common/opencodeStore';
import { indexWal, type WalIndex } from '../../../../src/sessions/common/opencodeStore/walIndex';
import { withParts } from '../../../support/opencodeDamage';
import { imageAfter, unpackFixture, walBetween } from '../../../support/opencodeWal';
import { read, sqlRows } from './opencodeStoreSupport';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-kept-'));
after(() => rmSync(temp, { recursive: true, force: true }));

const PAGE = 4096;
const u32 = (bytes: Uint8Array, at: number): number => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, false);

/** The log `wal` (of `before`'s pages) with one more transaction taking `before` to `after`, its checksums chained on. */
function appendCommit(wal: Uint8Array, before: Uint8Array, after: Uint8Array, options: { uncommitted?: boolean } = {}): Uint8Array {
  // A log of the same salts from `before` to `after`, its frames re-chained after `wal`'s last one.
  const alone = walBetween(before, after, { salts: [u32(wal, 16), u32(wal, 20)], ...options });
  const frames = alone.subarray(32);
  const out = new Uint8Array(wal.length + frames.length);
  out.set(wal);
  out.set(frames, wal.length);
  const view = new DataView(out.buffer);
  const last = wal.length - (24 + PAGE);
  let running: [number, number] = last >= 32 ? [u32(wal, last + 16), u32(wal, last + 20)] : [u32(wal, 24), u32(wal, 28)];
  for (let at = wal.length; at + 24 + PAGE <= out.length; at += 24 + PAGE) {
    running = sums(out.subarray(at, at + 8), running);
    running = sums(out.subarray(at + 24, at + 24 + PAGE), running);
    view.setUint32(at + 16, running[0]);
    view.setUint32(at + 20, running[1]);
  }
  return out;
}

function sums(bytes: Uint8Array, start: [number, number]): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let [a, b] = start;
  for (let at = 0; at + 8 <= bytes.length; at += 8) {
    a = (a + view.getUint32(at, true) + b) >>> 0;
    b = (b + view.getUint32(at + 4, true) + a) >>> 0;
  }
  return [a, b];
}

/** Bytes read from files while `run` runs (the page reader reads with readSync). */
async function bytesReadBy<T>(run: () => Promise<T>): Promise<{ value: T; bytes: number }> {
  // The module object itself: the reader's `readSync` is looked up on it at each call.
  const fs = createRequire(__filename)('node:fs') as typeof Fs;
  const readSync = fs.readSync;
  let bytes = 0;
  fs.readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const got = readSync(...args);
    bytes += got;
    return got;
  }) as typeof fs.readSync;
  try {
    return { value: await run(), bytes };
  } finally {
    fs.readSync = readSync;
  }
}

/** A turn's rows: a message and a part of `sessionId`, as OpenCode appends them. */
const turn = (image: Uint8Array, sessionId: string, n: number): Promise<Uint8Array> =>
  imageAfter(
    image,
    `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_~${n}', '${sessionId}', ${n}, ${n}, '{"role":"user"}');
     INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_~${n}', 'msg_~${n}', '${sessionId}', ${n}, ${n}, '{"type":"text","text":"${'y'.repeat(300 + n)}"}')`,
  );

describe('opencodeStore: the reads of a followed database', () => {
  it('read each commit as SQLite does, reading its new frames rather than the session again; through a rollback, a checkpoint and a restarted log', async () => {
    const folder = mkdtempSync(join(temp, 'follow-'));
    const path = join(folder, 'opencode.db');
    const recorded = unpackFixture('tools', path);
    const sessionId = String((await sqlRows(recorded, 'SELECT id FROM session'))[0]?.id);
    // A session of some weight (400 more parts): reading it again would show.
    const base = await withParts(recorded, sessionId, 400, 300);
    writeFileSync(path, base);
    const rowsOf = async (image: Uint8Array): Promise<unknown> => ({
      session: await sqlRows(image, 'SELECT * FROM session WHERE id = ?', [sessionId]),
      messages: await sqlRows(image, 'SELECT * FROM message WHERE session_id = ? ORDER BY id', [sessionId]),
      parts: await sqlRows(image, 'SELECT * FROM part WHERE session_id = ? ORDER BY id', [sessionId]),
    });
    const ours = (): Promise<unknown> =>
      read(path, (store) => {
        const session = store.sessions({ id: sessionId });
        const messages = store.messages(sessionId);
        const parts = store.parts(sessionId);
        if (!session.ok) return session;
        if (!messages.ok) return messages;
        if (!parts.ok) return parts;
        return { ok: true, value: { session: session.value, messages: messages.value, parts: parts.value } };
      });
    let image = base;
    let wal = walBetween(base, base);
    writeFileSync(`${path}-wal`, wal);
    // What reading the session costs without kept reads (a one-shot command's read).
    const fresh = (await bytesReadBy(ours)).bytes;
    const kept = keepReads(path);
    try {
      assert.deepEqual(await ours(), await rowsOf(image));
      for (let n = 1; n <= 12; n++) {
        const next = await turn(image, sessionId, n);
        if (n === 4) {
          // A transaction left unfinished, then rolled back: the next one's frames overwrite its tail.
          writeFileSync(`${path}-wal`, appendCommit(wal, image, await turn(image, sessionId, 99), { uncommitted: true }));
          assert.deepEqual(await ours(), await rowsOf(image));
        }
        if (n === 7) {
          // A checkpoint: the file now holds the log's pages; the log goes on.
          writeFileSync(path, image);
        }
        if (n === 10) {
          // A restart: the log begins again with other salts, over the checkpointed file.
          writeFileSync(path, image);
          wal = walBetween(image, next, { salts: [0x9999, 0x4242] });
        } else {
          wal = appendCommit(wal, image, next);
        }
        const written = wal.length - readFileSync(`${path}-wal`).length;
        writeFileSync(`${path}-wal`, wal);
        image = next;
        const { value, bytes } = await bytesReadBy(ours);
        assert.deepEqual(value, await rowsOf(image), `after commit ${n}`);
        // A commit that only appended: its frames and the pages of them the session uses, not the session again.
        if (![4, 7, 10].includes(n))
          assert.ok(bytes <= 2 * written + 8192 && bytes < fresh / 2, `commit ${n}: ${bytes} bytes read for ${written} written; a fresh read reads ${fresh}`);
      }
    } finally {
      kept.release();
    }
  });

  it('goes on scanning the log from its last commit as a fresh scan reads it, wherever the log was cut', async () => {
    const folder = mkdtempSync(join(temp, 'cut-'));
    const path = join(folder, 'log');
    const base = unpackFixture('plain', join(folder, 'opencode.db'));
    const sessionId = String((await sqlRows(base, 'SELECT id FROM session'))[0]?.id);
    let image = base;
    let wal = walBetween(base, base);
    for (let n = 1; n <= 8; n++) {
      const next = await turn(image, sessionId, n);
      wal = appendCommit(wal, image, next);
      image = next;
    }
    const header = base.subarray(0, 100);
    const dbPages = base.length / PAGE;
    const comparable = (index: WalIndex): unknown => ({ frames: [...index.frames], pageCount: index.pageCount, commits: index.commits, salt: index.salt });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: wal.length }), { maxLength: 6 }), (cuts) => {
        let resume: WalIndex['resume'] = null;
        for (const size of [...cuts.sort((a, b) => a - b), wal.length]) {
          writeFileSync(path, wal.subarray(0, size));
          const fd = openSync(path, 'r');
          try {
            const resumed = indexWal(fd, size, header, dbPages, resume);
            assert.deepEqual(comparable(resumed), comparable(indexWal(fd, size, header, dbPages)), `cut at ${size}`);
            resume = resumed.resume;
          } finally {
            closeSync(fd);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it("finds one session and a session's children through their indexes, as a scan of every session does", async () => {
    const path = join(temp, 'subagent.db');
    const image = unpackFixture('subagent', path);
    const all = await read(path, (store) => store.sessions());
    assert.ok(all.length >= 2);
    for (const row of all) {
      assert.deepEqual(await read(path, (store) => store.sessions({ id: String(row.id) })), [row]);
      const children = all.filter((other) => other.parent_id === row.id);
      assert.deepEqual(await read(path, (store) => store.sessions({ parentId: String(row.id) })), children);
    }
    assert.deepEqual(await read(path, (store) => store.sessions({ id: 'ses_absent000000' })), []);
    assert.deepEqual(await sqlRows(image, 'SELECT count(*) AS n FROM session'), [{ n: all.length }]);
    assert.equal(readFileSync(path).length, image.length);
  });
});
