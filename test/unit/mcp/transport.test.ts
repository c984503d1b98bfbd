// The MCP server's stdio as a hostile client drives it: a line over the cap, garbage, a message that
// is not JSON-RPC, and a line cut across chunks. Each gets an answer, and the next request is served.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createMcpServer } from '../../../src/mcp/server';
import { requestIdFromHead } from '../../../src/mcp/requestId';
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
    assert.deepEqual(errors, [
      [null, -32600],
      [null, -32700],
      [7, -32600],
    ]);
    assert.match(replies.find((reply) => reply.error)?.error?.message ?? '', /over 65536 bytes/);
    const tools = replies.find((reply) => reply.id === 2);
    assert.deepEqual(tools?.result?.tools?.map((tool) => tool.name).sort(), ['compact_context', 'recall']);
    input.end();
  });

  it('answers an oversized request under its own id, so the caller waiting on it hears back (issue 40)', async () => {
    const { input, next } = await serve(64 * 1024);
    input.write(request(1, 'initialize', INIT));
    const huge = (id: number | string): string =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'recall', arguments: { ref: 'x'.repeat(200 * 1024) } } })}\n`;
    input.write(huge(41));
    input.write(huge('call-"42"'));
    input.write(request(3, 'tools/list'));
    const replies = await next(4);
    const errors = replies.filter((reply) => reply.error).map((reply) => [reply.id, reply.error?.code]);
    assert.deepEqual(errors, [
      [41, -32600],
      ['call-"42"', -32600],
    ]);
    assert.ok(replies.some((reply) => reply.id === 3 && reply.result));
    input.end();
  });
});

describe('BoundedStdioTransport output', () => {
  it('a client that closed our stdout (EPIPE) ends the session quietly, without an unhandled error', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new BoundedStdioTransport(input, output);
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    assert.equal(closed, true);
  });
});

describe('requestIdFromHead', () => {
  it('reads the top-level id of a request cut anywhere after it, and only that id', () => {
    const cases: [string, string | number | null][] = [
      ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"ref":"xxxx', 7],
      ['{ "id" : "a\\"b", "method": "x"', 'a"b'],
      ['{"jsonrpc":"2.0","method":"tools/call","id":-3.5e2,"params":{', -350],
      // An id nested in params, or in a string, is not the request's.
      ['{"jsonrpc":"2.0","params":{"id":9,"text":"xxxx', null],
      ['{"method":"say \\"id\\":5","params":"xxxx', null],
      // Cut inside the id itself, or before it: not told.
      ['{"jsonrpc":"2.0","id":12', null],
      ['{"jsonrpc":"2.0","id":"abc', null],
      ['{"jsonrpc":"2.0","method":"x","params":{"a":[1,2,{"b":"', null],
      ['[{"id":1}', null],
      ['garbage', null],
      ['{"id":true,"method":"x"}', null],
    ];
    for (const [head, id] of cases) assert.equal(requestIdFromHead(head), id, head);
  });
});
