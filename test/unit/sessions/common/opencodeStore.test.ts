// The page reader of OpenCode-format databases against SQLite itself (sql.js on the same bytes):
// the same rows on the recorded databases, on a session whose index entries span many pages, on
// rows living only in the log; and hostile files end in a clear result, quickly, with nothing
// written beside them.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withStore } from '../../../../src/sessions/common/opencodeStore';
import { btreeCycle, overflowDamage, withParts } from '../../../support/opencodeDamage';
import { imageAfter, unpackFixture, walBetween } from '../../../support/opencodeWal';
import { read, sqlRows } from './opencodeStoreSupport';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-store-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** Our rows and SQLite's for every session of `image` (written to `path`, with `wal` beside it when given). */
async function assertSameRows(path: string, image: Uint8Array): Promise<void> {
  const sessions = await read(path, (store) => store.sessions());
  const expected = await sqlRows(image, 'SELECT * FROM session ORDER BY time_updated DESC, id DESC');
  assert.deepEqual(sessions, expected);
  const ids = expected.map((row) => String(row.id));
  const sizes = await sqlRows(image, 'SELECT session_id, sum(length(CAST(data AS BLOB))) AS size FROM part GROUP BY session_id');
  const bytes = await read(path, (store) => store.sessionBytes(ids));
  for (const row of sizes) if (ids.includes(String(row.session_id))) assert.equal(bytes.get(String(row.session_id)), row.size, String(row.session_id));
  for (const id of ids) {
    assert.deepEqual(await read(path, (store) => store.messages(id)), await sqlRows(image, 'SELECT * FROM message WHERE session_id = ? ORDER BY id', [id]));
    assert.deepEqual(await read(path, (store) => store.parts(id)), await sqlRows(image, 'SELECT * FROM part WHERE session_id = ? ORDER BY id', [id]));
  }
}

async function failure(path: string): Promise<{ message: string; ms: number }> {
  const started = performance.now();
  const result = await withStore(path, (store) => {
    const sessions = store.sessions();
    if (!sessions.ok) return sessions;
    const ids = sessions.value.map((row) => String(row.id));
    for (const id of ids) {
      const parts = store.parts(id);
      if (!parts.ok) return parts;
    }
    return store.sessionBytes([...ids, ...Array.from({ length: 20 }, (_, index) => `ses_other${index}`)]);
  });
  assert.equal(result.ok, false, 'a damaged database read as if whole');
  return { message: result.ok ? '' : result.error.message, ms: performance.now() - started };
}

describe('opencodeStore: the page reader', () => {
  it('reads every recorded database as SQLite does', async () => {
    for (const name of ['plain', 'tools', 'compaction', 'subagent']) {
      const path = join(temp, `${name}.db`);
      await assertSameRows(path, unpackFixture(name, path));
    }
  });

  it('follows an index whose entries for one session span many pages, and sizes by scan and by index alike', async () => {
    const base = unpackFixture('tools', join(temp, 'base.db'));
    const [session] = await sqlRows(base, 'SELECT id FROM session');
    let image = await withParts(base, String(session?.id), 3000, 300);
    // Other sessions' parts around it, so the equal keys sit between others in the index.
    image = await imageAfter(
      image,
      "INSERT INTO session SELECT 'ses_a' || id, project_id, workspace_id, parent_id, slug, directory, path, title, version, share_url, summary_additions, summary_deletions, summary_files, summary_diffs, metadata, cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, revert, permission, agent, model, time_created, time_updated + 1, time_compacting, time_archived FROM session",
    );
    image = await imageAfter(image, "INSERT INTO part SELECT 'prt_b' || id, message_id, 'ses_a' || session_id, time_created, time_updated, data FROM part");
    const path = join(temp, 'many.db');
    writeFileSync(path, image);
    await assertSameRows(path, image);
    const ids = (await sqlRows(image, 'SELECT id FROM session')).map((row) => String(row.id));
    const padded = [...ids, ...Array.from({ length: 30 }, (_, index) => `ses_absent${index}`)];
    const scanned = await read(path, (store) => store.sessionBytes(padded));
    for (const id of ids) assert.equal(scanned.get(id), (await read(path, (store) => store.sessionBytes([id]))).get(id));
    assert.equal(scanned.get('ses_absent0'), 0);
  });

  it('sees rows that live only in the log, writing nothing beside the files', async () => {
    const folder = mkdtempSync(join(temp, 'wal-'));
    const path = join(folder, 'opencode.db');
    const base = unpackFixture('plain', path);
    const [session] = await sqlRows(base, 'SELECT id FROM session');
    const grown = await withParts(base, String(session?.id), 500, 200);
    const renamed = await imageAfter(grown, "UPDATE session SET title = 'Only in the log'");
    writeFileSync(`${path}-wal`, walBetween(base, renamed));
    const before = [readFileSync(path), readFileSync(`${path}-wal`)];
    await assertSameRows(path, renamed);
    assert.deepEqual([readFileSync(path), readFileSync(`${path}-wal`)], before);
    assert.deepEqual(readdirSync(folder).sort(), ['opencode.db', 'opencode.db-wal']);
  });

  it('reads a database whose file holds only its header page, every row in the log', async () => {
    const path = join(temp, 'header-only.db');
    const image = unpackFixture('tools', path);
    const pageSize = ((image[16] ?? 0) << 8) | (image[17] ?? 0);
    const first = image.slice(0, pageSize);
    // An empty database's first page: the schema and rows all come from the log.
    const empty = await imageAfter(new Uint8Array(0), 'PRAGMA page_size = 4096; CREATE TABLE t(x)');
    writeFileSync(path, empty.subarray(0, pageSize));
    writeFileSync(`${path}-wal`, walBetween(empty.subarray(0, pageSize), image));
    assert.equal(first.length, pageSize);
    await assertSameRows(path, image);
  });

  describe('hostile files: a clear failure, in bounded time', () => {
    const session = async (image: Uint8Array): Promise<string> => String((await sqlRows(image, 'SELECT id FROM session'))[0]?.id);

    it('a truncated database names the page past its end', async () => {
      const path = join(temp, 'truncated.db');
      const image = unpackFixture('compaction', path);
      writeFileSync(path, image.subarray(0, Math.floor(image.length / 2)));
      const { message, ms } = await failure(path);
      assert.match(message, /truncated\.db is truncated: page \d+ lies past its end/);
      assert.ok(ms < 5000);
    });

    it('a b-tree page naming itself as a child is a cycle, not a hang', async () => {
      const path = join(temp, 'cycle.db');
      const base = unpackFixture('tools', path);
      writeFileSync(path, await btreeCycle(await withParts(base, await session(base), 400, 300)));
      const { message, ms } = await failure(path);
      assert.match(message, /cycle\.db: page \d+ is reached twice in one b-tree: a cycle/);
      assert.ok(ms < 5000);
    });

    it('a row claiming 256 MiB is refused before anything of that size is allocated', async () => {
      const path = join(temp, 'claim.db');
      const base = unpackFixture('plain', path);
      writeFileSync(path, await overflowDamage(base, await session(base), 'claim'));
      const heap = process.memoryUsage().arrayBuffers;
      const { message, ms } = await failure(path);
      assert.match(message, /claim\.db: page \d+: a row of 268435455 bytes/);
      assert.ok(process.memoryUsage().arrayBuffers - heap < 64 * 1024 * 1024);
      assert.ok(ms < 5000);
    });

    it('an overflow chain looping on itself is followed no further than its row needs', async () => {
      const path = join(temp, 'loop.db');
      const base = unpackFixture('plain', path);
      writeFileSync(path, await overflowDamage(base, await session(base), 'loop'));
      const started = performance.now();
      // The looped chain yields the wrong bytes for the big row: read, bounded, its text not what was written.
      const parts = await withStore(path, (store) => store.parts('x'));
      assert.ok(parts.ok);
      const all = await withStore(path, (store) => {
        const sessions = store.sessions();
        return sessions.ok ? store.parts(String(sessions.value[0]?.id)) : sessions;
      });
      assert.ok(all.ok);
      const big = all.value.find((row) => String(row.id).startsWith('prt_zz'));
      assert.ok(big !== undefined && String(big.data).length > 2_000_000);
      assert.ok(performance.now() - started < 5000);
    });
  });
});
