// The MCP server as a client of the official SDK sees it (in-memory transport): both tools listed
// with their schemas; compact_context leaves a request the proxy takes and says it changed nothing
// itself; recall gives back what a stub's ref names, secrets masked, and a clear error otherwise.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { agentSessionOfEnv, createMcpServer, TOOL_NAMES } from '../../../src/mcp/server';
import { requestsDir, takeCompactionRequests } from '../../../src/proxy/control';
import { archiveOriginal, recallDir, refOf, sessionRecallDir } from '../../../src/proxy/recall';

async function connected(session: string | null = null): Promise<{ client: Client; stateDir: string }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'cl-mcp-'));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(stateDir, session).connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return { client, stateDir };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

describe('the MCP server', () => {
  it('lists compact_context and recall', async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [TOOL_NAMES.compact, TOOL_NAMES.recall].sort());
    assert.deepEqual(tools.find((tool) => tool.name === TOOL_NAMES.compact)?.inputSchema.required, ['reason']);
    await client.close();
  });

  it('compact_context leaves one request for the proxy and changes nothing itself', async () => {
    const { client, stateDir } = await connected();
    const result = await client.callTool({ name: TOOL_NAMES.compact, arguments: { reason: 'finished the refactor', focus: 'the auth module' } });
    assert.equal(result.isError, undefined);
    assert.match(textOf(result), /^Compaction requested \([\w-]+\)\. This tool changed nothing by itself/);
    const taken = takeCompactionRequests(requestsDir(stateDir));
    assert.deepEqual(taken.requests.map(({ reason, focus, session }) => ({ reason, focus, session })), [{ reason: 'finished the refactor', focus: 'the auth module', session: null }]);
    await client.close();
  });

  it('a request names the agent session that started the server (CLAUDE_CODE_SESSION_ID), and only that session takes it', async () => {
    const session = '0b5e9c1e-3f4a-4c2b-9d8e-7a6b5c4d3e2f';
    assert.equal(agentSessionOfEnv({ CLAUDE_CODE_SESSION_ID: session.toUpperCase() }), session);
    assert.equal(agentSessionOfEnv({ CLAUDE_CODE_SESSION_ID: '../etc' }), null);
    assert.equal(agentSessionOfEnv({}), null);
    const { client, stateDir } = await connected(session);
    await client.callTool({ name: TOOL_NAMES.compact, arguments: { reason: 'done with the parser' } });
    assert.deepEqual(takeCompactionRequests(requestsDir(stateDir), (request) => request.session === 'another').requests, []);
    assert.deepEqual(takeCompactionRequests(requestsDir(stateDir), (request) => request.session === session).requests.map((request) => request.session), [session]);
    await client.close();
  });

  it('recall gives back the archived output with secrets masked, and says why when it cannot', async () => {
    const { client, stateDir } = await connected();
    const secret = `sk-ant-api03-${'x'.repeat(40)}`;
    const original = `const key = "${secret}"; // the table\n`;
    const ref = refOf('toolu_1', original);
    assert.ok(archiveOriginal(sessionRecallDir(recallDir(stateDir), null), ref, original).ok);
    const recalled = await client.callTool({ name: TOOL_NAMES.recall, arguments: { ref } });
    assert.match(textOf(recalled), /the table/);
    assert.ok(!textOf(recalled).includes(secret));
    const missing = await client.callTool({ name: TOOL_NAMES.recall, arguments: { ref: 'ctx-lens:0000000000000000' } });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /nothing archived under ctx-lens:0000000000000000/);
    const bad = await client.callTool({ name: TOOL_NAMES.recall, arguments: { ref: '../../etc/passwd' } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /is not a ref/);
    await client.close();
  });
});
