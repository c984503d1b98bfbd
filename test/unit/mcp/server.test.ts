// The MCP server as a client of the official SDK sees it (in-memory transport): both tools listed
// with their schemas; compact_context leaves a request the proxy takes and says it changed nothing
// itself; recall gives back what a stub's ref names, secrets masked, and a clear error otherwise.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { agentSessionOfEnv, createMcpServer, TOOL_NAMES } from '../../../src/mcp/server';
import { requestsDir, takeCompactionRequests } from '../../../src/proxy/control';
import { archiveOriginal, recallDir, refOf, sessionRecallDir } from '../../../src/proxy/recall';
import type { EstimateInputs } from '../../../src/mcp/compactEstimate';
import { adapterOf } from '../../../src/sessions/agents';
import { BUNDLED_PRICES } from '../../../src/pricing/bundledPrices';
import { indexPrices } from '../../../src/pricing/prices';
import { breakEvenSentence } from '../../../src/protocol/format';
import { tempDir } from '../../support/tempDir';

/** A real 2.0.76 session (Sonnet 4.5, 222 lines, a compaction in it) whose live context the gentle tiers shrink. */
const PUBLISHED = { configDir: join(__dirname, '../../fixtures/claude-code/public/codemie-2.0.76'), session: '624a4a58-b34c-462d-a70d-13421c8125a8' };
const estimateIn = (models = BUNDLED_PRICES.models): EstimateInputs => ({
  adapter: adapterOf('claude-code'),
  where: { homes: { 'claude-code': [PUBLISHED.configDir] } },
  prices: indexPrices({ ...BUNDLED_PRICES, models }),
});

async function connected(session: string | null = null, estimate?: EstimateInputs): Promise<{ client: Client; stateDir: string }> {
  const stateDir = tempDir('cl-mcp-');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(stateDir, session, estimate).connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return { client, stateDir };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

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
    assert.deepEqual(
      taken.requests.map(({ reason, focus, session }) => ({ reason, focus, session })),
      [{ reason: 'finished the refactor', focus: 'the auth module', session: null }],
    );
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
    assert.deepEqual(
      takeCompactionRequests(requestsDir(stateDir), (request) => request.session === session).requests.map((request) => request.session),
      [session],
    );
    await client.close();
  });

  it('compact_context says what the compaction costs once, saves per call and when it pays off, in the words of compact and the preview', async () => {
    const { client } = await connected(PUBLISHED.session, estimateIn());
    const result = await client.callTool({ name: TOOL_NAMES.compact, arguments: { reason: 'tests pass, next: the docs' } });
    assert.equal(result.isError, undefined);
    const structured = result.structuredContent as {
      requestId: string;
      cost: { model: string; beforeTokens: number; afterTokens: number; oneOffUsd: number; savingPerCallUsd: number; breakEvenCalls: number };
      costText: string;
    };
    const { cost } = structured;
    assert.equal(cost.model, 'claude-sonnet-4-5-20250929');
    assert.ok(cost.afterTokens < cost.beforeTokens, `${cost.afterTokens} < ${cost.beforeTokens}`);
    // Sonnet 4.5: the kept tokens written at $3.75 instead of read at $0.30 per million, the removed ones no longer read at $0.30.
    assert.ok(Math.abs(cost.oneOffUsd - (cost.afterTokens * 3.45) / 1e6) < 1e-9);
    assert.ok(Math.abs(cost.savingPerCallUsd - ((cost.beforeTokens - cost.afterTokens) * 0.3) / 1e6) < 1e-9);
    assert.equal(cost.breakEvenCalls, Math.ceil(cost.oneOffUsd / cost.savingPerCallUsd));
    assert.equal(
      structured.costText,
      `At claude-sonnet-4-5-20250929's prices it ${breakEvenSentence(cost)} (${cost.beforeTokens.toLocaleString('en-US')} → ${cost.afterTokens.toLocaleString('en-US')} tokens, estimated from the transcript).`,
    );
    assert.match(structured.costText, /it costs \$0\.\d+ once, saves \$0\.\d+ per call: pays off after \d+ calls/);
    assert.ok(textOf(result).startsWith(`Compaction requested (${structured.requestId}).`));
    assert.ok(textOf(result).endsWith(structured.costText));
    assert.equal((result.structuredContent as { message: string }).message, textOf(result));
    await client.close();
  });

  it('compact_context says "no price for <model>" when the model is not priced, and why there is no estimate when the session is unknown', async () => {
    const unpriced = await connected(PUBLISHED.session, estimateIn([]));
    const result = await unpriced.client.callTool({ name: TOOL_NAMES.compact, arguments: { reason: 'done' } });
    const structured = result.structuredContent as {
      cost: { model: string; oneOffUsd: number | null; breakEvenCalls: number | null; afterTokens: number };
      costText: string;
    };
    assert.deepEqual([structured.cost.model, structured.cost.oneOffUsd, structured.cost.breakEvenCalls], ['claude-sonnet-4-5-20250929', null, null]);
    assert.match(structured.costText, /^No price for claude-sonnet-4-5-20250929: tokens only \([\d,]+ → [\d,]+ tokens, estimated from the transcript\)\.$/);
    await unpriced.client.close();
    for (const [session, why] of [
      [null, 'the agent did not say which session asked (no CLAUDE_CODE_SESSION_ID)'],
      ['0b5e9c1e-3f4a-4c2b-9d8e-7a6b5c4d3e2f', 'no transcript of session 0b5e9c1e-3f4a-4c2b-9d8e-7a6b5c4d3e2f found'],
    ] as const) {
      const unknown = await connected(session, estimateIn());
      const answered = await unknown.client.callTool({ name: TOOL_NAMES.compact, arguments: { reason: 'done' } });
      assert.equal(answered.isError, undefined);
      const { requestId, message } = answered.structuredContent as { requestId: string; message: string };
      assert.deepEqual(answered.structuredContent, { message, requestId, cost: null, costText: `No cost estimate: ${why}.` });
      assert.equal(message, textOf(answered));
      await unknown.client.close();
    }
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
