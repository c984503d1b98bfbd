// What Claude Code pipes to a hook or the status line is bounded before it is parsed.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, parseInputJson, readStdin } from '../../../src/cli/hookInput';

describe('readStdin', () => {
  it('reads input under the cap whole', async () => {
    assert.equal(await readStdin(Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]), 16), '{"a":1}');
  });

  it('stops at the cap with the reason, without reading the rest', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(64 * 1024, 0x61));
      },
    });
    await assert.rejects(readStdin(endless, 1024 * 1024), /larger than 1 MiB: not read/);
    assert.ok(pulled <= 20, `read ${pulled} chunks`);
  });
});

describe('parseInputJson', () => {
  it('parses what JSON.parse parses, when shallow (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        const text = JSON.stringify(value);
        assert.deepEqual(parseInputJson(text), JSON.parse(text));
      }),
    );
  });

  it('refuses nesting past the limit before parsing, brackets inside strings not counted', () => {
    const deep = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    assert.doesNotThrow(() => parseInputJson(deep(MAX_JSON_DEPTH)));
    assert.throws(() => parseInputJson(deep(MAX_JSON_DEPTH + 1)), /nests deeper than 64 levels \(at character 64\)/);
    assert.deepEqual(parseInputJson(JSON.stringify({ text: '['.repeat(1000), quote: '\\"[' })), { text: '['.repeat(1000), quote: '\\"[' });
    const began = performance.now();
    assert.throws(() => parseInputJson(deep(5 * 1024 * 1024)), /nests deeper/);
    assert.ok(performance.now() - began < 1_000);
  });
});
