import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { version } from '../../../package.json';
import { AGENT_NAMES, AGENTS } from '../../../src/sessions/agents';
import { run } from './support';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/tempDir';

describe('the ctxlens CLI', () => {
  it('prints its version', async () => {
    const result = await run(['--version']);
    assert.equal(result.code, 0);
    assert.equal(result.out.trim(), version);
  });

  it('prints usage listing every command', async () => {
    const result = await run(['--help']);
    assert.equal(result.code, 0);
    for (const command of ['sessions', 'inspect', 'compact']) assert.match(result.out, new RegExp(`ctxlens ${command}`));
  });

  it('names no one agent for `sessions` in the overview, and every registered one in `sessions --help`', async () => {
    // The overview must not load the registry (every adapter) to stay cheap: it names none.
    const overview = (await run(['--help'])).out;
    const line = overview.split('\n').find((text) => text.includes('ctxlens sessions')) ?? '';
    for (const adapter of AGENTS) assert.ok(!line.includes(adapter.name), line);
    const usage = await run(['sessions', '--help']);
    assert.ok(usage.out.includes(`Lists ${AGENT_NAMES} sessions`), usage.out);
    for (const adapter of AGENTS) assert.ok(usage.out.includes(adapter.name), adapter.name);
  });

  it('exits 2 with usage on an unknown command', async () => {
    const result = await run(['frobnicate']);
    assert.equal(result.code, 2);
    assert.match(result.err, /unknown command 'frobnicate'/);
    assert.match(result.err, /Usage: ctxlens/);
  });

  it('exits 2 with the command usage on an unknown flag or a missing argument', async () => {
    const flag = await run(['inspect', '--frob']);
    assert.equal(flag.code, 2);
    assert.match(flag.err, /^ctxlens inspect: unknown option '--frob'\n/);
    assert.match(flag.err, /Usage: ctxlens inspect/);
    const missing = await run(['inspect']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /missing <file\|id>/);
    const target = await run(['compact', 'x', '--target-tokens', '10', '--target-percent', '50']);
    assert.equal(target.code, 2);
    assert.match(target.err, /exclude each other/);
  });

  it("refuses a file no agent wrote by name, exit 1, instead of reading it as Claude Code's", async () => {
    const path = join(tempDir('cl-unknown-'), 'clicks.jsonl');
    writeFileSync(path, '{"event": "click", "x": 1}\n');
    for (const command of ['inspect', 'compact']) {
      const result = await run([command, path]);
      assert.equal(result.code, 1, `${command}: ${result.err}`);
      assert.equal(result.out, '');
      assert.match(result.err, new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a session file that ${AGENT_NAMES}`));
      assert.match(result.err, /pass --agent /);
    }
  });
});
