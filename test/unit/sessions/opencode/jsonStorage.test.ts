// OpenCode's JSON storage (before 1.2; 1.1.65's files, test/fixtures/opencode/json-storage) is no
// session: each of its files is refused by name, never read as another agent's transcript (before
// this, a message file was taken for Claude Code's and "read" with invalid-JSON diagnostics). Told by
// where it lies (1.x's `storage/…`, 0.5.x's `project/<id>/storage/…`) and, for a copy elsewhere, by
// what it holds. Kilo's own storage files are refused as Kilo's.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { identifyFile } from '../../../../src/sessions/agents';
import { tempDir } from '../../../support/tempDir';

const STORAGE = join(__dirname, '..', '..', '..', 'fixtures', 'opencode', 'json-storage', 'storage');
const MESSAGE = join(STORAGE, 'message', 'ses_de03ed516ffeaqjKss9exuoI2A', 'msg_21fc13030001CetjC7tBFIzEj1.json');

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The agent a file is given to, and what reading it says. */
async function refusalOf(path: string): Promise<{ agent: string; unrecognised: boolean; message: string }> {
  const told = await identifyFile(path);
  if (told.adapter === undefined) return { agent: 'none', unrecognised: true, message: told.unrecognised };
  const read = await told.adapter.readSessionInfo(path);
  assert.ok(!read.ok, `${path} was read as a session`);
  assert.equal(read.error.code, 'invalid-input');
  return { agent: told.adapter.id, unrecognised: told.unrecognised !== undefined, message: read.error.message };
}

describe("OpenCode's JSON storage", () => {
  it("refuses every file of 1.1.65's storage by name, as OpenCode's", async () => {
    const files = filesUnder(STORAGE);
    assert.equal(files.length, 6);
    for (const file of files) {
      const refused = await refusalOf(file);
      assert.deepEqual([refused.agent, refused.unrecognised], ['opencode', false], relative(STORAGE, file));
      assert.ok(refused.message.startsWith(`${file} is an OpenCode storage file (OpenCode 0.x JSON storage), not a session this reads`), refused.message);
    }
  });

  it("refuses 0.5.x's layout (project/<id>/storage/session/…) and a copy elsewhere, by what it holds", async () => {
    const dir = tempDir('cl-json-storage-');
    const old = join(
      dir,
      'opencode',
      'project',
      'global',
      'storage',
      'session',
      'message',
      'ses_de03ed516ffeaqjKss9exuoI2A',
      'msg_21fc13030001CetjC7tBFIzEj1.json',
    );
    mkdirSync(join(old, '..'), { recursive: true });
    copyFileSync(MESSAGE, old);
    const copy = join(dir, 'downloads', 'message.json');
    mkdirSync(join(copy, '..'), { recursive: true });
    // Compact, keys reordered: told by what it holds, not by how it is spelled.
    const record = JSON.parse(readFileSync(MESSAGE, 'utf8')) as Record<string, unknown>;
    writeFileSync(copy, JSON.stringify(Object.fromEntries(Object.entries(record).reverse())));
    for (const file of [old, copy]) {
      const refused = await refusalOf(file);
      assert.equal(refused.agent, 'opencode');
      assert.match(refused.message, /is an OpenCode storage file \(OpenCode 0\.x JSON storage\), not a session this reads/);
    }
  });

  it("refuses Kilo's own storage files as Kilo's", async () => {
    const dir = tempDir('cl-json-storage-');
    const file = join(dir, 'kilo', 'storage', 'session_diff', 'ses_de03ed516ffeaqjKss9exuoI2A.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '[]');
    const refused = await refusalOf(file);
    assert.equal(refused.agent, 'kilo');
    assert.match(refused.message, /is a Kilo storage file/);
  });

  it('leaves other JSON files alone: an object with a msg_ id but no session is not a storage record', async () => {
    const dir = tempDir('cl-json-storage-');
    const file = join(dir, 'note.json');
    writeFileSync(file, JSON.stringify({ id: 'msg_21fc13030001CetjC7tBFIzEj1', text: 'not OpenCode' }));
    const told = await identifyFile(file);
    assert.notEqual(told.adapter?.id, 'opencode');
    assert.ok(told.unrecognised !== undefined);
  });
});
