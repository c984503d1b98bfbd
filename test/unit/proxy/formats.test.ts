// The wire formats beside the Messages API, on the shapes the real CLIs send (test/support's
// conversation in each API's shape): the scan finds every tool output where JSON.parse does, a
// splice changes those values only (Codex's encrypted reasoning and every other byte as they
// were), the engine reads the same calls and results, and each API's usage gives the exact fill.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FORMATS, formatOf } from '../../../src/proxy/formats';
import { spliceEdits } from '../../../src/proxy/scan';
import type { StickyEdit } from '../../../src/proxy/session';
import { asChat, asGemini, asResponses, bytesOf, conversation, joinedPieces } from '../../support/proxyConversation';

const edit = (toolUseId: string, text: string): StickyEdit => ({
  toolUseId,
  tier: 'supersede',
  text,
  ref: 'ctx-lens:0123456789abcdef',
  tokensBefore: 100,
  tokensAfter: 10,
});
const ENCRYPTED = 'gAAAAABo+enc/0123456789+/=\u00e9"quoted"\\';

describe('wire formats', () => {
  it('route by the request: Responses, Chat Completions and Gemini paths under any base path; anything else is no format', () => {
    assert.equal(formatOf('POST', '/v1/responses')?.name, 'openai-responses');
    assert.equal(formatOf('POST', '/openai/v1/responses')?.name, 'openai-responses');
    assert.equal(formatOf('POST', '/v1/chat/completions')?.name, 'openai-chat');
    assert.equal(formatOf('POST', '/v1beta/models/gemini-2.5-pro:streamGenerateContent')?.name, 'gemini');
    assert.equal(formatOf('POST', '/v1/messages')?.name, 'anthropic-messages');
    assert.equal(formatOf('GET', '/v1/responses'), null);
    assert.equal(formatOf('POST', '/v1/responses/compact'), null);
    assert.equal(formatOf('POST', '/v1/embeddings'), null);
  });

  it('Responses: a stub replaces an output value only; encrypted reasoning and every other byte go as they came', () => {
    const body = asResponses(conversation({ turns: 6 }));
    const input = body.input as Record<string, unknown>[];
    input.splice(3, 0, { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: ENCRYPTED });
    const raw = bytesOf(body);
    const scan = FORMATS['openai-responses'].scan(raw, '/v1/responses');
    assert.ok(scan.ok, scan.ok ? '' : scan.error);
    assert.equal(scan.value.toolResults.length, 6);
    assert.equal(scan.value.messageCount, input.length);
    assert.equal(scan.value.agentSession, '01a21fd4-06eb-7560-a093-97e2083337fa');
    assert.equal(scan.value.model, 'gpt-5.5');
    const splice = spliceEdits(raw, scan.value, new Map([['toolu_000001', edit('toolu_000001', 'STUB')]]), FORMATS['openai-responses'].encodeStub);
    const sent = JSON.parse(joinedPieces(splice.pieces).toString('utf8')) as { input: Record<string, unknown>[] };
    const expected = structuredClone(input);
    const target = expected.find((item) => item.call_id === 'toolu_000001' && item.type === 'function_call_output');
    assert.ok(target);
    target.output = 'STUB';
    assert.deepEqual(sent.input, expected);
    assert.ok(joinedPieces(splice.pieces).includes(Buffer.from(JSON.stringify(ENCRYPTED))), 'the encrypted bytes as they were');
    const parsed = FORMATS['openai-responses'].parse(raw);
    assert.ok(parsed.ok);
    assert.equal(parsed.value.messages.length, input.length, 'one engine message per item');
    assert.equal(
      parsed.value.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'tool_use').length,
      6,
    );
  });

  it('Chat Completions and Gemini: the same, on their shapes', () => {
    for (const [name, body, path] of [
      ['openai-chat', asChat(conversation({ turns: 5 })), '/v1/chat/completions'],
      ['gemini', asGemini(conversation({ turns: 5 })), '/v1beta/models/gemini-2.5-pro:generateContent'],
    ] as const) {
      const format = FORMATS[name];
      const raw = bytesOf(body);
      const scan = format.scan(raw, path);
      assert.ok(scan.ok, scan.ok ? '' : scan.error);
      assert.equal(scan.value.toolResults.length, 5, name);
      const splice = spliceEdits(raw, scan.value, new Map([['toolu_000002', edit('toolu_000002', 'STUB')]]), format.encodeStub);
      const out = joinedPieces(splice.pieces).toString('utf8');
      const sent = JSON.parse(out) as unknown;
      assert.ok(out.includes(name === 'gemini' ? '"response":{"output":"STUB"}' : '"content":"STUB"'), name);
      assert.equal(JSON.stringify(sent).length, JSON.stringify(JSON.parse(raw.toString('utf8'))).length - (raw.length - Buffer.byteLength(out)), name);
      const parsed = format.parse(raw);
      assert.ok(parsed.ok);
      const blocks = parsed.value.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
      const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
      const results = blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
      assert.deepEqual(results, uses, `${name}: every result pairs with its call`);
      assert.deepEqual(
        scan.value.toolResults.map((result) => result.toolUseId),
        results,
        `${name}: the scan and the engine name the same results`,
      );
    }
  });

  it('Gemini calls without ids are named by their places, the same in the scan and the engine', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a' } } }, { functionCall: { name: 'read_file', args: { file_path: 'b' } } }],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'read_file', response: { output: 'A' } } },
            { functionResponse: { name: 'read_file', response: { output: 'B' } } },
          ],
        },
      ],
    };
    const raw = bytesOf(body);
    const scan = FORMATS.gemini.scan(raw, '/v1beta/models/x:generateContent');
    assert.ok(scan.ok);
    const parsed = FORMATS.gemini.parse(raw);
    assert.ok(parsed.ok);
    const blocks = parsed.value.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
    assert.deepEqual(
      blocks.filter((block) => block.type === 'tool_use').map((block) => block.id),
      ['gemini-call-1-0', 'gemini-call-1-1'],
    );
    assert.deepEqual(
      scan.value.toolResults.map((result) => result.toolUseId),
      ['gemini-call-1-0', 'gemini-call-1-1'],
    );
  });

  it('refuses what it cannot read, with the reason (the bytes then go as they came)', () => {
    for (const [name, text] of [
      ['openai-responses', '{"input": 3}'],
      ['openai-responses', '[1]'],
      ['openai-chat', '{"messages":[{"content":"no role"}]}'],
      ['gemini', '{"contents":[{"parts":[{"functionResponse":"x"}]}]}'],
      ['openai-chat', '{"messages":[]} trailing'],
    ] as const) {
      const scan = FORMATS[name].scan(Buffer.from(text), '/v1beta/models/x:generateContent');
      assert.equal(scan.ok, false, `${name}: ${text}`);
    }
  });

  it("each API's usage gives the exact fill, cached tokens counted inside the input for OpenAI and Gemini", () => {
    const responses = FORMATS['openai-responses'].usage.fromEvent({
      type: 'response.completed',
      response: { usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 800 }, output_tokens: 50 } },
    });
    assert.deepEqual(responses, { inputTokens: 200, cacheReadTokens: 800, cacheCreationTokens: 0, outputTokens: 50 });
    const chat = FORMATS['openai-chat'].usage.fromEvent({
      choices: [],
      usage: { prompt_tokens: 900, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 100 } },
    });
    assert.deepEqual(chat, { inputTokens: 800, cacheReadTokens: 100, cacheCreationTokens: 0, outputTokens: 7 });
    const gemini = FORMATS.gemini.usage.fromJson([
      { candidates: [] },
      { usageMetadata: { promptTokenCount: 500, cachedContentTokenCount: 300, candidatesTokenCount: 20, thoughtsTokenCount: 5 } },
    ]);
    assert.deepEqual(gemini, { inputTokens: 200, cacheReadTokens: 300, cacheCreationTokens: 0, outputTokens: 25 });
    assert.equal(FORMATS['openai-chat'].usage.fromEvent({ usage: null }), null);
  });
  it("each format finds the request's last tool call id from the body's end; a look-alike inside a tool output never counts", () => {
    // A file read by the agent that itself holds JSON with the same key: inside a string its quotes are escaped.
    const trap = JSON.stringify({ tool_call_id: 'call_fake', call_id: 'call_fake', tool_use_id: 'toolu_fake', functionResponse: { id: 'fake' } });
    const chat = JSON.stringify({
      model: 'm',
      messages: [
        { role: 'user', content: 'read it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_7Hq2mX', type: 'function', function: { name: 'read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_7Hq2mX', content: trap },
      ],
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }],
    });
    assert.equal(FORMATS['openai-chat'].toolCallInBody(Buffer.from(chat)), 'call_7Hq2mX');
    const responses = JSON.stringify({
      model: 'm',
      input: [
        { type: 'function_call', call_id: 'call_R1', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_R1', output: trap },
      ],
      prompt_cache_key: '019ec8a1-7b2c-7d40-9e15-3a6f0c2d8b71',
    });
    assert.equal(FORMATS['openai-responses'].toolCallInBody(Buffer.from(responses)), 'call_R1');
    // Gemini: the id may come after the (large) response object; only the last functionResponse is walked.
    const gemini = JSON.stringify({
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: trap }, id: 'read_file-1764306012345-8a1f3c' } }] },
      ],
    });
    assert.equal(FORMATS.gemini.toolCallInBody(Buffer.from(gemini)), 'read_file-1764306012345-8a1f3c');
    const anthropic = JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Xy', content: trap }] }] });
    assert.equal(FORMATS['anthropic-messages'].toolCallInBody(Buffer.from(anthropic)), 'toolu_01Xy');
    // None carried, a call without an id, a cut body: null, never a throw.
    assert.equal(FORMATS['openai-chat'].toolCallInBody(Buffer.from('{"messages":[{"role":"user","content":"hi"}]}')), null);
    assert.equal(FORMATS.gemini.toolCallInBody(Buffer.from('{"contents":[{"parts":[{"functionResponse":{"name":"x","response":{}}}]}]}')), null);
    assert.equal(FORMATS.gemini.toolCallInBody(Buffer.from('{"contents":[{"parts":[{"functionResponse":{"name":"x","respo')), null);
    assert.equal(FORMATS['openai-chat'].toolCallInBody(Buffer.from('{"messages":[{"role":"tool","tool_call_id":"call_cut')), null);
    // An `id` inside the response object is the output's, not the call's.
    const nested = '{"contents":[{"parts":[{"functionResponse":{"name":"t","response":{"id":"inner","output":"o"},"id":"t__call_Out1"}}]}]}';
    assert.equal(FORMATS.gemini.toolCallInBody(Buffer.from(nested)), 't__call_Out1');
  });

  it('finding the tool call id of a hostile body is bounded: 24 MB of nesting after the marker, or none at all, answer null at once', () => {
    const deep = Buffer.concat([Buffer.from('{"contents":[{"parts":[{"functionResponse":{"response":'), Buffer.alloc(24 * 1024 * 1024, '[')]);
    const plain = Buffer.alloc(24 * 1024 * 1024, '[');
    for (const [name, body] of [
      ['gemini', deep],
      ['gemini', plain],
      ['openai-chat', plain],
      ['openai-responses', plain],
    ] as const) {
      const started = performance.now();
      assert.equal(FORMATS[name].toolCallInBody(body), null);
      assert.ok(performance.now() - started < 500, `${name}: ${Math.round(performance.now() - started)} ms`);
    }
  });
});
