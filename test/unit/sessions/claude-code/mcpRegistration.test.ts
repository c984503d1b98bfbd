// Registering the MCP server in .mcp.json: only our entry changes, comments and other servers stay.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mcpConfig, mcpEntry, registerMcpServer, unregisterMcpServer } from '../../../../src/sessions/claude-code/mcpRegistration';

const entry = mcpEntry('/usr/bin/node', '/opt/context-lens/dist/cli.js');

describe('mcpRegistration', () => {
  it('creates the file when there is none', () => {
    const edit = registerMcpServer(null, 'context-lens', entry);
    assert.ok(edit.ok);
    assert.deepEqual(JSON.parse(edit.value.text), { mcpServers: { 'context-lens': entry } });
    assert.deepEqual(JSON.parse(mcpConfig('context-lens', entry)), JSON.parse(edit.value.text));
  });

  it('keeps comments and other servers, and is idempotent', () => {
    const text = '{\n  // ours too\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n';
    const edit = registerMcpServer(text, 'context-lens', entry);
    assert.ok(edit.ok && edit.value.changed);
    assert.ok(edit.value.text.includes('// ours too') && edit.value.text.includes('"other": { "command": "x" }'));
    const again = registerMcpServer(edit.value.text, 'context-lens', entry);
    assert.ok(again.ok && !again.value.changed);
    const removed = unregisterMcpServer(edit.value.text, 'context-lens');
    assert.ok(removed.ok && removed.value.changed);
    assert.ok(!removed.value.text.includes('context-lens') && removed.value.text.includes('// ours too'));
  });

  it('refuses a file that is not JSON instead of overwriting it', () => {
    const edit = registerMcpServer('{ "mcpServers": ', 'context-lens', entry);
    assert.ok(!edit.ok);
    assert.match(edit.error, /not valid JSON/);
  });
});
