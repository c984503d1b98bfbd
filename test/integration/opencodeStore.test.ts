// The shipped CLI on OpenCode databases as people have them: rows living only in the log, and the
// databases older releases (1.2.27, 1.3.2: no `session.model` column) left behind, their log beside
// them. Each is listed and inspected with its exact fill (the last call's input + cache read + cache
// write as OpenCode stored them), and nothing beside it is written or changed: no `-shm`, no `-wal`,
// the same bytes.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { foldedImage } from '../../src/sessions/common/opencodeStore';
import { withParts } from '../support/opencodeDamage';
import { imageAfter, sqliteReady, unpackFixture, walBetween } from '../support/opencodeWal';
import { eachShippedPass } from '../support/shippedCli';

const VERSIONS = join(__dirname, '..', 'fixtures', 'opencode', 'versions');
const PUBLISHED = join(__dirname, '..', 'fixtures', 'opencode', 'published');
const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-store-cli-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** Every file of `folder` with its bytes. */
const snapshot = (folder: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(join(folder, name)).toString('base64')]),
  );

/** The newest assistant message's prompt tokens as OpenCode stored them, and its session, by SQLite over the folded image. */
async function lastCall(db: string): Promise<{ session: string; used: number }> {
  const image = await foldedImage(db);
  assert.ok(image.ok);
  const SQL = await sqliteReady;
  const sqlite = new SQL.Database(image.value);
  const [result] = sqlite.exec(
    "SELECT session_id, data FROM message WHERE json_extract(data, '$.role') = 'assistant' AND json_extract(data, '$.tokens.input') > 0 ORDER BY id DESC LIMIT 1",
  );
  sqlite.close();
  const [session, data] = result?.values[0] ?? [];
  const tokens = (JSON.parse(String(data)) as { tokens: { input: number; cache: { read: number; write: number } } }).tokens;
  return { session: String(session), used: tokens.input + tokens.cache.read + tokens.cache.write };
}

/** `versions/<version>/<scenario>.db(.gz)` and its log, as the release left them, in a folder of their own. */
function unpackVersion(version: string, scenario: string): string {
  const folder = join(temp, `${version}-${scenario}`);
  mkdirSync(folder, { recursive: true });
  const db = join(folder, 'opencode.db');
  writeFileSync(db, gunzipSync(readFileSync(join(VERSIONS, version, `${scenario}.db.gz`))));
  const wal = join(VERSIONS, version, `${scenario}.db-wal.gz`);
  if (existsSync(wal)) writeFileSync(`${db}-wal`, gunzipSync(readFileSync(wal)));
  return db;
}

interface Inspected {
  session: { id: string; title: string };
  used: { tokens: number; source: string };
}

describe('OpenCode databases through the shipped CLI', { timeout: 600_000 }, () => {
  it("reads rows only in the log, and older releases' databases with their exact fill, writing nothing", async () => {
    const folder = join(temp, 'log-only');
    mkdirSync(folder);
    const db = join(folder, 'opencode.db');
    const base = unpackFixture('tools', db);
    const SQL = await sqliteReady;
    const probe = new SQL.Database(base);
    const session = String(probe.exec('SELECT id FROM session')[0]?.values[0]?.[0]);
    probe.close();
    const grown = await imageAfter(await withParts(base, session, 400, 200), "UPDATE session SET title = 'Renamed in the log'");
    writeFileSync(`${db}-wal`, walBetween(base, grown));

    const databases = [
      db,
      ...['1.2.27', '1.3.2'].flatMap((version) =>
        ['plain', 'tools', 'compaction']
          .filter((scenario) => existsSync(join(VERSIONS, version, `${scenario}.db.gz`)))
          .map((scenario) => unpackVersion(version, scenario)),
      ),
    ];
    assert.ok(databases.length >= 5, `fixtures of older releases: ${databases.length - 1}`);
    const expected = await Promise.all(databases.map(lastCall));
    const before = databases.map((path) => snapshot(join(path, '..')));

    await eachShippedPass(async (pass) => {
      for (const [index, path] of databases.entries()) {
        const want = expected[index];
        assert.ok(want);
        const listed = await pass.run(['sessions', '--all', '--agent', 'opencode', '--opencode-db', path, '--json']);
        assert.equal(listed.code, 0, `${path}: ${listed.stderr}`);
        const sessions = JSON.parse(listed.stdout) as { id: string; title: string }[];
        assert.ok(
          sessions.some((row) => row.id === want.session),
          `${path}: ${listed.stdout}`,
        );
        const inspected = await pass.run(['inspect', want.session, '--agent', 'opencode', '--opencode-db', path, '--json']);
        assert.equal(inspected.code, 0, `${path}: ${inspected.stderr}`);
        const json = JSON.parse(inspected.stdout) as Inspected;
        assert.equal(json.used.source, 'usage', path);
        assert.equal(json.used.tokens, want.used, path);
        if (path === db) assert.equal(json.session.title, 'Renamed in the log');
      }
    });
    assert.deepEqual(
      databases.map((path) => snapshot(join(path, '..'))),
      before,
      'a database, its log or the folder changed (a -shm or -wal created?)',
    );
  });

  it('reads a database OpenCode 1.4.0 left in a published home folder (every row in the log) with the fill it recorded, writing nothing', async () => {
    const folder = join(temp, 'published-1.4.0');
    mkdirSync(folder);
    const db = join(folder, 'opencode.db');
    writeFileSync(db, gunzipSync(readFileSync(join(PUBLISHED, '1.4.0', 'opencode.db.gz'))));
    writeFileSync(`${db}-wal`, gunzipSync(readFileSync(join(PUBLISHED, '1.4.0', 'opencode.db-wal.gz'))));
    // What OpenCode recorded, by SQLite over the folded image: its one answer counted 0 tokens.
    const image = await foldedImage(db);
    assert.ok(image.ok);
    const SQL = await sqliteReady;
    const sqlite = new SQL.Database(image.value);
    const [sessionRow] = sqlite.exec('SELECT id, title, version FROM session')[0]?.values ?? [];
    const tokens = sqlite.exec("SELECT json_extract(data, '$.tokens') FROM message WHERE json_extract(data, '$.role') = 'assistant'")[0]?.values ?? [];
    sqlite.close();
    assert.equal(sessionRow?.[2], '1.4.0');
    assert.deepEqual(
      tokens.map(([json]) => JSON.parse(String(json)) as unknown),
      [{ input: 0, output: 0, reasoning: 0, cache: { write: 0, read: 0 } }],
    );
    const id = String(sessionRow?.[0]);
    const before = snapshot(folder);

    await eachShippedPass(async (pass) => {
      const listed = await pass.run(['sessions', '--all', '--agent', 'opencode', '--opencode-db', db, '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        (JSON.parse(listed.stdout) as { id: string; title: string }[]).map((row) => [row.id, row.title]),
        [[id, String(sessionRow?.[1])]],
      );
      const inspected = await pass.run(['inspect', id, '--agent', 'opencode', '--opencode-db', db, '--json']);
      assert.equal(inspected.code, 0, inspected.stderr);
      const json = JSON.parse(inspected.stdout) as Inspected & { pending: { tokens: number; source: string }; messages: number };
      // No call counted anything: nothing measured, the prompt estimated.
      assert.deepEqual(json.used, { tokens: 0, source: 'estimate', outputTokensPending: 0 });
      assert.equal(json.pending.source, 'estimate');
      assert.ok(json.pending.tokens > 0);
      assert.equal(json.messages, 1);
    });
    assert.deepEqual(snapshot(folder), before, 'the database, its log or the folder changed');
  });
});
