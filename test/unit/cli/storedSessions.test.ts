// A session that lives in a store rather than a file of its own (OpenCode's SQLite database) is
// named `<database>#<session id>` or by its id with the agent's home option; the CLI reads it either way.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { run } from './support';
import { tempDir } from '../../support/tempDir';

const DB = gunzipSync(readFileSync(join(__dirname, '..', '..', 'fixtures', 'opencode', 'recorded', 'tools.db.gz')));

describe('sessions in a store, on the command line', () => {
  it('lists, then inspects by `<database>#<id>` and by id with --opencode-db', async () => {
    const db = join(tempDir('cl-cli-store-'), 'opencode.db');
    writeFileSync(db, DB);
    const listed = await run(['sessions', '--all', '--json', '--agent', 'opencode', '--opencode-db', db]);
    assert.equal(listed.code, 0, listed.err);
    const [session] = JSON.parse(listed.out) as { id: string; path: string }[];
    assert.ok(session);
    assert.equal(session.path, `${db}#${session.id}`);
    for (const argv of [
      ['inspect', session.path, '--json'],
      ['inspect', session.id, '--opencode-db', db, '--json'],
    ]) {
      const inspected = await run(argv);
      assert.equal(inspected.code, 0, `${argv.join(' ')}: ${inspected.err}`);
      const report = JSON.parse(inspected.out) as { session: { agent: string }; used: { tokens: number; source: string } };
      assert.equal(report.session.agent, 'opencode');
      assert.equal(report.used.source, 'usage');
      assert.ok(report.used.tokens > 0);
    }
    const missing = await run(['inspect', `${db}#ses_nothere`]);
    assert.equal(missing.code, 1);
  });
});
