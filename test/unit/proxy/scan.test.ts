// The Messages request read as bytes: on every request the real Claude Code CLI sent in our
// recordings it finds what JSON.parse finds, and splicing stubs into the agent's bytes gives the
// request applyEdits builds from the parsed body; shapes the proxy does not edit are refused.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scanMessagesBody, spliceEdits, type MessagesScan as BodyScan } from '../../../src/proxy/scan';
import type { StickyEdit } from '../../../src/proxy/session';
import { applyEdits, type RequestBody } from '../../../src/proxy/wire';
import { joinedPieces } from '../../support/proxyConversation';

const FIXTURES = join(__dirname, '../../fixtures/claude-code');

/** Every Messages request body the real CLI sent in the recordings. */
function recordedBodies(): { name: string; body: Buffer }[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      let text: string;
      try {
        text = readFileSync(join(FIXTURES, entry.name, 'requests.jsonl'), 'utf8');
      } catch {
        return [];
      }
      // The fixtures keep the tool definitions once and say "[same tools as request 1]" after that.
      let tools: unknown;
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line, index) => ({ name: `${entry.name} #${index + 1}`, request: JSON.parse(line) as { path?: string; body?: Record<string, unknown> } }))
        .filter(({ request }) => request.path === '/v1/messages' && typeof request.body === 'object')
        .map(({ name, request }) => {
          if (Array.isArray(request.body?.tools)) tools = request.body.tools;
          const body = typeof request.body?.tools === 'string' ? { ...request.body, tools } : request.body;
          return { name, body: Buffer.from(JSON.stringify(body), 'utf8') };
        });
    });
}

const edit = (toolUseId: string, text: string): StickyEdit => ({ toolUseId, tier: 'supersede', text, ref: 'ctx-lens:x', tokensBefore: 0, tokensAfter: 0 });

/** The tool results of user messages as JSON.parse sees them, in order. */
function parsedResults(body: RequestBody): string[] {
  return body.messages.flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content)
      ? message.content.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id))
      : [],
  );
}

function scanned(raw: Buffer): BodyScan {
  const result = scanMessagesBody(raw);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

/** Splicing `edits` gives the request applyEdits builds from the parsed body. */
function assertSpliceMatches(raw: Buffer, edits: Map<string, StickyEdit>): Buffer {
  const scan = scanned(raw);
  const body = JSON.parse(raw.toString('utf8')) as RequestBody;
  const out = joinedPieces(spliceEdits(raw, scan, edits).pieces);
  assert.deepEqual(JSON.parse(out.toString('utf8')), { ...body, messages: applyEdits(body.messages, edits) });
  return out;
}

describe('scanMessagesBody on the real CLI’s requests', () => {
  const bodies = recordedBodies();

  it('reads what JSON.parse reads, and splices every other result into a stub as applyEdits would', () => {
    assert.ok(bodies.length >= 50, `recorded requests: ${bodies.length}`);
    let results = 0;
    for (const { name, body: raw } of bodies) {
      const scan = scanned(raw);
      const body = JSON.parse(raw.toString('utf8')) as RequestBody & { model?: unknown; stream?: unknown };
      assert.deepEqual(
        scan.toolResults.map((result) => result.toolUseId),
        parsedResults(body),
        name,
      );
      assert.equal(scan.model, body.model, name);
      assert.equal(scan.stream, body.stream === true, name);
      assert.equal(scan.userId, body.metadata?.user_id, name);
      assert.equal(scan.hasTools, (body.tools?.length ?? 0) > 0, name);
      assert.deepEqual(JSON.parse(scan.firstMessage.toString('utf8')), body.messages[0], name);
      const edits = new Map(
        scan.toolResults
          .filter((_, index) => index % 2 === 0)
          .map((result) => [result.toolUseId, edit(result.toolUseId, `[COMPACTED] ${result.toolUseId} — «stub» "quoted" \\ 中文`)]),
      );
      assertSpliceMatches(raw, edits);
      results += scan.toolResults.length;
    }
    assert.ok(results > 100, `tool results seen: ${results}`);
  });
});

describe('scanMessagesBody', () => {
  it('reads keys in any order, escaped keys and values, whitespace, and strings ending in backslashes', () => {
    const raw = Buffer.from(
      [
        '{ "stream" : true ,',
        '  "messages" : [',
        '    { "content" : [ { "content" : "ends in a backslash \\\\", "tool_use_id" : "toolu_1", "type" : "tool_result" } ], "role" : "user" },',
        '    { "\\u0072ole": "assistant", "content": [ { "type": "tool_use", "id": "toolu_2", "name": "Read", "input": { "nested": [ { "a": "}]\\"" } ] } } ] },',
        '    { "role": "\\u0075ser", "content": [ { "type": "tool_result", "tool_use_id": "toolu_\\u0032", "content": [ { "type": "text", "text": "中文 \\"x\\"" } ] } ] }',
        '  ],',
        '  "model": "claude-\\u00e9", "tools": [ {} ], "metadata": { "user_id": "u" }',
        '}',
      ].join('\n'),
    );
    const scan = scanned(raw);
    assert.deepEqual(
      scan.toolResults.map((result) => result.toolUseId),
      ['toolu_1', 'toolu_2'],
    );
    assert.equal(scan.model, 'claude-é');
    assert.equal(scan.stream, true);
    assert.equal(scan.hasTools, true);
    assert.equal(scan.userId, 'u');
    assertSpliceMatches(
      raw,
      new Map([
        ['toolu_1', edit('toolu_1', 'stub one')],
        ['toolu_2', edit('toolu_2', 'stub two')],
      ]),
    );
  });

  it('gives a tool result without content the stub’s content, and leaves results outside user messages alone', () => {
    const raw = Buffer.from(
      JSON.stringify({
        messages: [
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a' }] },
          { role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'x' }] },
        ],
      }),
    );
    const scan = scanned(raw);
    assert.deepEqual(
      scan.toolResults.map((result) => result.toolUseId),
      ['a'],
    );
    const out = assertSpliceMatches(
      raw,
      new Map([
        ['a', edit('a', 'stub')],
        ['b', edit('b', 'stub')],
      ]),
    );
    assert.match(out.toString('utf8'), /"tool_use_id":"a","content":"stub"/);
  });

  it('sends the very bytes when no edit applies', () => {
    const raw = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }));
    const splice = spliceEdits(raw, scanned(raw), new Map([['x', edit('x', 'stub')]]));
    assert.equal(splice.applied, 0);
    assert.equal(joinedPieces(splice.pieces), raw);
  });

  it('refuses what is not the Messages shape, or not JSON, with a reason', () => {
    const cases: [string, RegExp][] = [
      ['', /not a JSON object/],
      ['not json', /not a JSON object/],
      ['[1]', /no messages array/],
      ['{"messages":"x"}', /no messages array/],
      ['{"model":"m"}', /no messages array/],
      ['{"messages":[{"role":"robot","content":"x"}]}', /user, assistant or system role/],
      ['{"messages":[{"content":"x"}]}', /user, assistant or system role/],
      ['{"messages":[{"role":"user"}]}', /content of unknown shape/],
      ['{"messages":[{"role":"user","content":5}]}', /content of unknown shape/],
      ['{"messages":[{"role":"user","content":[{"text":"no type"}]}]}', /content of unknown shape/],
      ['{"messages":[{"role":"user","content":[{"type":1}]}]}', /content of unknown shape/],
      ['{"messages":[],"system":5}', /system prompt of unknown shape/],
      ['{"messages":[],"tools":{}}', /tools of unknown shape/],
      ['{"messages":[],"tools":[1]}', /tools of unknown shape/],
      ['{"messages":[],"metadata":"m"}', /metadata of unknown shape/],
      ['{"messages":[],"messages":[]}', /duplicate 'messages'/],
      ['{"messages":[{"role":"user","role":"user","content":"x"}]}', /duplicate 'role'/],
      ['{"messages":[{"role":"user","content":"x"}]', /not JSON/],
      ['{"messages":[{"role":"user","content":"x}]}', /not JSON/],
      ['{"messages":[],"x":{"a":[}]}', /not JSON/],
      ['{"messages":[],"x":tru}', /not JSON/],
      ['{"messages":[]} trailing', /not JSON/],
      ['{"messages" []}', /not JSON/],
      ['{"mess\\qages":[]}', /not JSON/],
    ];
    for (const [text, reason] of cases) {
      const result = scanMessagesBody(Buffer.from(text));
      assert.equal(result.ok, false, text);
      if (!result.ok) assert.match(result.error, reason, text);
    }
  });

  it('a system message may come without content, and nesting of any depth in a value it jumps is fine', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const scan = scanMessagesBody(Buffer.from(`{"messages":[{"role":"system"},{"role":"user","content":"x"}],"extra":${deep}}`));
    assert.ok(scan.ok, scan.ok ? '' : scan.error);
  });
});
