// `ctxlens mcp --print-config` and `--register`: the entry Connect writes, added to a project's
// .mcp.json beside the person's servers, once, with the previous content backed up.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { run } from './support';
import { tempDir } from '../../support/tempDir';

describe('ctxlens mcp', () => {
  it('--print-config prints a .mcp.json with the server running this CLI with mcp', async () => {
    const result = await run(['mcp', '--print-config']);
    assert.equal(result.code, 0, result.err);
    const config = JSON.parse(result.out) as { mcpServers: Record<string, { type: string; args: string[] }> };
    assert.equal(config.mcpServers['context-lens']?.type, 'stdio');
    assert.deepEqual(config.mcpServers['context-lens']?.args.slice(-1), ['mcp']);
  });

  it("--register adds it beside the person's servers once, backing up what was there", async () => {
    const dir = tempDir('cl-mcp-register-');
    const env = { XDG_STATE_HOME: tempDir('cl-state-') };
    writeFileSync(join(dir, '.mcp.json'), '{\n  "mcpServers": {\n    "docs": { "command": "docs" }\n  }\n}\n');
    const first = await run(['mcp', '--register', dir], env);
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /^Registered context-lens in .*\.mcp\.json\n$/);
    const servers = (JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers;
    assert.deepEqual(Object.keys(servers), ['docs', 'context-lens']);
    const backups = readdirSync(join(env.XDG_STATE_HOME, 'context-lens', 'settings-backups'));
    assert.ok(
      backups.some((name) => name.endsWith('.mcp.json')),
      backups.join(', '),
    );
    assert.match((await run(['mcp', '--register', dir], env)).out, /^Already registered/);
    const invalid = tempDir('cl-mcp-register-');
    writeFileSync(join(invalid, '.mcp.json'), '{ oops');
    const refused = await run(['mcp', '--register', invalid], env);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /\.mcp\.json was left alone: it is not valid JSON/);
  });
});
