// The MCP server's entry in .mcp.json, as Connect adds it and Disconnect takes it out: only our
// entry changes (comments, other servers, formatting stay), a Node.js that moved is re-pointed, a
// `context-lens` server of the person's own stays, and Disconnect after Connect gives back the text
// that was there (fast-check property over generated files).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { connectMcp, disconnectMcp, mcpConfig, mcpEntry } from '../../../../src/sessions/claude-code/mcpRegistration';

const NAME = 'context-lens';
const entry = mcpEntry({ node: '/usr/bin/node', cli: '/home/me/.vscode-server/data/User/globalStorage/context-lens.context-lens/bin/cli.js' });

function connected(text: string | null): string {
  const edit = connectMcp(text, NAME, entry);
  assert.ok(edit.ok, edit.ok ? '' : edit.error);
  return edit.value.text;
}

describe('the MCP server in .mcp.json', () => {
  it('creates the file when there is none, as --print-config shows it', () => {
    const text = connected(null);
    assert.deepEqual(JSON.parse(text), { mcpServers: { [NAME]: entry } });
    assert.deepEqual(JSON.parse(mcpConfig(NAME, entry)), JSON.parse(text));
    const removed = disconnectMcp(text, NAME);
    assert.ok(removed.ok && removed.value.changed);
    assert.deepEqual(JSON.parse(removed.value.text), {}, 'an empty object: the file level removes a file Connect created');
  });

  it('keeps comments and other servers, is idempotent, and disconnects back byte for byte', () => {
    const text = '{\n  // ours too\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n';
    const edit = connectMcp(text, NAME, entry);
    assert.ok(edit.ok && edit.value.changed);
    assert.ok(edit.value.text.includes('// ours too') && edit.value.text.includes('"other": { "command": "x" }'));
    const again = connectMcp(edit.value.text, NAME, entry);
    assert.ok(again.ok && !again.value.changed);
    const removed = disconnectMcp(edit.value.text, NAME);
    assert.ok(removed.ok);
    assert.equal(removed.value.text, text);
  });

  it("re-points its own entry at a Node.js that moved, and runs VS Code's runtime as Node where none is installed", () => {
    const old = connected('{}');
    const moved = mcpEntry({ node: '/opt/code/code', electronRunAsNode: true, cli: entry.args[0]! });
    const edit = connectMcp(old, NAME, moved);
    assert.ok(edit.ok && edit.value.changed);
    assert.deepEqual(JSON.parse(edit.value.text).mcpServers[NAME], {
      type: 'stdio',
      command: '/opt/code/code',
      args: [entry.args[0], 'mcp'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    const removed = disconnectMcp(edit.value.text, NAME);
    assert.ok(removed.ok);
    assert.equal(removed.value.text, '{}');
  });

  it("leaves a context-lens server of the person's own alone, and says so", () => {
    const text = '{ "mcpServers": { "context-lens": { "command": "npx", "args": ["context-lens", "mcp", "--state-dir", "/x"] } } }';
    const edit = connectMcp(text, NAME, entry);
    assert.ok(edit.ok && !edit.value.changed);
    assert.match(edit.value.notes[0] ?? '', /Your own "context-lens" server/);
    const removed = disconnectMcp(text, NAME);
    assert.ok(removed.ok && !removed.value.changed);
  });

  it('refuses a file that is not JSON, or whose mcpServers it cannot edit safely, instead of overwriting it', () => {
    for (const [text, why] of [
      ['{ "mcpServers": ', /not valid JSON/],
      ['[]', /does not hold a JSON object/],
      ['{ "mcpServers": [] }', /"mcpServers" is not an object/],
      ['{ "mcpServers": {}, "mcpServers": {} }', /appears more than once/],
    ] as const) {
      const edit = connectMcp(text, NAME, entry);
      assert.ok(!edit.ok, text);
      assert.match(edit.error, why);
      assert.match(edit.error, /^\.mcp\.json was left alone/);
    }
  });
});

const server = fc.record({ command: fc.string({ maxLength: 12 }), args: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }) });
const theirMcp = fc.record(
  {
    mcpServers: fc.dictionary(fc.constantFrom('docs', 'db', 'github', 'context-lens-docs'), server),
    other: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: [] },
);

describe('connect / disconnect properties of .mcp.json', () => {
  it('disconnect after connect gives back exactly the text that was there', () => {
    fc.assert(
      fc.property(theirMcp, fc.constantFrom(0, 2, 4, '\t'), (value, indent) => {
        const text = `${JSON.stringify(value, null, indent)}\n`;
        const removed = disconnectMcp(connected(text), NAME);
        assert.ok(removed.ok);
        assert.equal(removed.value.text, text);
      }),
      { numRuns: 200 },
    );
  });

  it('connect keeps every server the person had', () => {
    fc.assert(
      fc.property(theirMcp, (value) => {
        const after = JSON.parse(connected(JSON.stringify(value, null, 2))) as { mcpServers: Record<string, unknown> };
        for (const [name, theirs] of Object.entries(value.mcpServers ?? {})) assert.deepEqual(after.mcpServers[name], { ...theirs });
        assert.deepEqual(after.mcpServers[NAME], entry);
      }),
      { numRuns: 200 },
    );
  });
});
