// A file of OpenCode's JSON storage handed to the shipped `ctxlens inspect` (each runtime, cold and
// warm): refused by name with a non-zero exit, never read as a Claude Code transcript (it was: exit 0
// and a diagnostic about invalid JSON). Files: 1.1.65's storage, test/fixtures/opencode/json-storage.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { eachShippedPass } from '../support/shippedCli';

const STORAGE = join(__dirname, '..', 'fixtures', 'opencode', 'json-storage', 'storage');
const FILES = [
  join(STORAGE, 'message', 'ses_de03ed516ffeaqjKss9exuoI2A', 'msg_21fc13030001CetjC7tBFIzEj1.json'),
  join(STORAGE, 'part', 'msg_21fc12bf4001ofcyjwlDMiHAWY', 'prt_21fc12c0a001M0o76jYl35oJ75.json'),
  join(STORAGE, 'session', 'global', 'ses_de03ed516ffeaqjKss9exuoI2A.json'),
];

describe("the shipped ctxlens on OpenCode's JSON storage", { timeout: 300_000 }, () => {
  it('refuses each file by name, with a non-zero exit, on every runtime cold and warm', async () => {
    await eachShippedPass(async (pass) => {
      for (const file of FILES) {
        const run = await pass.run(['inspect', file]);
        assert.notEqual(run.code, 0, `${pass.label}: ${runOutcome(run)}`);
        assert.equal(run.stdout, '');
        assert.ok(
          run.stderr.includes(`${file} is an OpenCode storage file (OpenCode 0.x JSON storage), not a session this reads`),
          `${pass.label}: ${run.stderr}`,
        );
        assert.ok(!/Claude Code|invalid JSON/i.test(run.stderr), `${pass.label}: ${run.stderr}`);
      }
    });
  });
});
