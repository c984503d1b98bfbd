// Properties of reading a Messages request as bytes, over generated requests written out in any
// key order, indentation and escaping (texts with quotes, backslashes, control characters, CJK and
// astral characters; keys written with \u escapes):
// - the scan finds the tool results JSON.parse finds, in order;
// - splicing any set of edits gives the request applyEdits builds from the parsed body;
// - on any bytes at all (cut, spliced or random) it returns a result and never throws.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { scanMessagesBody, spliceEdits } from '../../../src/proxy/scan';
import type { StickyEdit } from '../../../src/proxy/session';
import { applyEdits, type RequestBody } from '../../../src/proxy/wire';
import { joinedPieces } from '../../support/proxyConversation';

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', '\\', '"', '\\"', '\\\\', '}]', '中文', '😀', '\u0000\u001f\u2028'),
);
const id = fc.integer({ min: 0, max: 12 }).map((n) => `toolu_${n}`);

const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('tool_use'), id, name: fc.constant('Read'), input: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record(
    {
      type: fc.constant('tool_result'),
      tool_use_id: id,
      content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 3 })),
      is_error: fc.boolean(),
    },
    { requiredKeys: ['type', 'tool_use_id'] },
  ),
  fc.record({ type: fc.constant('image'), source: fc.record({ type: fc.constant('base64'), data: fc.base64String({ maxLength: 40 }) }) }),
);
const message = fc
  .record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.oneof(text, fc.array(block, { maxLength: 5 })), cache: fc.boolean() })
  .map(({ role, content, cache }) => ({ role, content, ...(cache ? { cache_control: { type: 'ephemeral' } } : {}) }));
const request = fc.record(
  {
    model: text,
    messages: fc.array(message, { minLength: 1, maxLength: 8 }),
    system: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 2 })),
    tools: fc.array(fc.record({ name: text, input_schema: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 3 }),
    metadata: fc.record({ user_id: text }),
    stream: fc.boolean(),
    extra: fc.jsonValue({ maxDepth: 4 }),
  },
  { requiredKeys: ['messages'] },
);

/** How the request is written out: key order, indentation, and whether non-ASCII and keys are \u-escaped. */
const layout = fc.record({ seed: fc.integer(), indent: fc.constantFrom(0, 1, 2, '\t'), escape: fc.boolean(), escapeKeys: fc.boolean() });

function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0 || 1;
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    const other = state % (index + 1);
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}

function written(
  value: unknown,
  { seed, indent, escape, escapeKeys }: { seed: number; indent: number | string; escape: boolean; escapeKeys: boolean },
): Buffer {
  const reorder = (inner: unknown): unknown => {
    if (Array.isArray(inner)) return inner.map(reorder);
    if (typeof inner !== 'object' || inner === null) return inner;
    return Object.fromEntries(shuffled(Object.entries(inner), seed).map(([key, item]) => [key, reorder(item)]));
  };
  let out = JSON.stringify(reorder(value), null, indent || undefined);
  if (escape) out = out.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // "role" and "type" written as "\u0072ole" and "\u0074ype": JSON.parse reads the same keys.
  if (escapeKeys) out = out.replace(/"(role|type)":/g, (_, key: string) => `"\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}":`);
  return Buffer.from(out, 'utf8');
}

const stubs = fc.dictionary(id, text, { maxKeys: 6 });

const resultsOf = (body: RequestBody): string[] =>
  body.messages.flatMap((one) =>
    one.role === 'user' && Array.isArray(one.content) ? one.content.filter((item) => item.type === 'tool_result').map((item) => String(item.tool_use_id)) : [],
  );

describe('scanMessagesBody and spliceEdits (fast-check)', () => {
  it('find what JSON.parse finds and splice what applyEdits builds, however the request is written', () => {
    fc.assert(
      fc.property(request, layout, stubs, (value, how, texts) => {
        const raw = written(value, how);
        const scan = scanMessagesBody(raw);
        assert.ok(scan.ok, scan.ok ? '' : scan.error);
        const body = JSON.parse(raw.toString('utf8')) as RequestBody;
        assert.deepEqual(
          scan.value.toolResults.map((result) => result.toolUseId),
          resultsOf(body),
        );
        const edits = new Map(
          Object.entries(texts).map(([toolUseId, stub]): [string, StickyEdit] => [
            toolUseId,
            { toolUseId, tier: 'supersede', text: stub, ref: 'ctx-lens:x', tokensBefore: 0, tokensAfter: 0 },
          ]),
        );
        const splice = spliceEdits(raw, scan.value, edits);
        const out = joinedPieces(splice.pieces);
        assert.deepEqual(JSON.parse(out.toString('utf8')), { ...body, messages: applyEdits(body.messages, edits) });
        assert.equal(out.length, raw.length - splice.saved);
      }),
      { numRuns: 400 },
    );
  });

  it('returns a result on any bytes, never throws', () => {
    const valid = fc.tuple(request, layout).map(([value, how]) => written(value, how));
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 500 }).map((array) => Buffer.from(array)),
      fc.json().map((json) => Buffer.from(json)),
      fc
        .tuple(valid, fc.nat(), fc.nat())
        .map(([raw, from, to]) => Buffer.concat([raw.subarray(0, from % (raw.length + 1)), raw.subarray(to % (raw.length + 1))])),
      fc
        .tuple(valid, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }))
        .map(([raw, at, insert]) => Buffer.concat([raw.subarray(0, at % (raw.length + 1)), Buffer.from(insert), raw.subarray(at % (raw.length + 1))])),
    );
    fc.assert(
      fc.property(bytes, (raw) => {
        const scan = scanMessagesBody(raw);
        assert.equal(typeof scan.ok, 'boolean');
        if (!scan.ok) assert.ok(scan.error.length > 0, 'a reason');
      }),
      { numRuns: 1_000 },
    );
  });
});
