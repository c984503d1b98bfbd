// The MCP server's stdio as a hostile client drives it: a line over the cap, garbage, a message that
// is not JSON-RPC, and a line cut across chunks. Each gets an answer, and the next request is served.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createMcpServer } from '../../../src/mcp/server';
import { BoundedStdioTransport } from '../../../src/mcp/transport';
import { tempDir } from '../../support/tempDir';

interface Reply {
  id: unknown;
  result?: { tools?: { name: string }[] };
  error?: { code: number; message: string };
}

async function serve(maxLineBytes: number): Promise<{ input: PassThrough; replies: () => Reply[]; next: (count: number) => Promise<Reply[]> }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Reply[] = [];
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part) as Reply);
  });
  await createMcpServer(tempDir('cl-mcp-transport-'), null).connect(new BoundedStdioTransport(input, output, maxLineBytes));
  const next = async (count: number): Promise<Reply[]> => {
    for (let waited = 0; lines.length < count && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    return lines.slice(0, count);
  };
  return { input, replies: () => lines, next };
}

const request = (id: number, method: string, params: unknown = {}): string => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } };

describe('BoundedStdioTransport', () => {
  it('answers an oversized line, garbage and a non-JSON-RPC message with errors, and keeps serving', async () => {
    const { input, next } = await serve(64 * 1024);
    input.write(request(1, 'initialize', INIT));
    // 10 MiB without a newline, in 64 KiB chunks, then its end: skipped, answered once.
    const big = Buffer.alloc(64 * 1024, 0x61);
    for (let index = 0; index < 160; index++) input.write(big);
    input.write('\n');
    input.write('{"this is": not json}\n');
    input.write('{"id": 7, "no": "jsonrpc"}\n');
    // A request cut in three chunks.
    const listed = request(2, 'tools/list');
    input.write(listed.slice(0, 10));
    input.write(listed.slice(10, 30));
    input.write(listed.slice(30));
    const replies = await next(5);
    assert.equal(replies.length, 5, JSON.stringify(replies));
    // Errors are written as soon as a line is refused, replies when the server has answered: by id, not order.
    assert.ok(replies.some((reply) => reply.id === 1 && reply.error === undefined));
    const errors = replies.filter((reply) => reply.error).map((reply) => [reply.id, reply.error?.code]);
    assert.deepEqual(errors, [[null, -32600], [null, -32700], [7, -32600]]);
    assert.match(replies.find((reply) => reply.error)?.error?.message ?? '', /over 65536 bytes/);
    const tools = replies.find((reply) => reply.id === 2);
    assert.deepEqual(tools?.result?.tools?.map((tool) => tool.name).sort(), ['compact_context', 'recall']);
    input.end();
  });
});
