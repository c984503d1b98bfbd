import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LineSplitter } from '../../../../src/sessions/common/lines';
import { readForward } from '../../../../src/sessions/claude-code/jsonl';
import { TranscriptBuilder, basicSession, tempDir } from './builders';

function file(content: string | Buffer): string {
  const path = join(tempDir(), 'session.jsonl');
  writeFileSync(path, content);
  return path;
}

const codes = (diagnostics: { code: string }[]): string[] => diagnostics.map((diagnostic) => diagnostic.code);

describe('tolerant JSONL reading', () => {
  it('reads a clean transcript without diagnostics, with line numbers and offsets', async () => {
    const text = basicSession().toString();
    const read = await readForward(file(text));
    assert.deepEqual(read.diagnostics, []);
    assert.equal(read.records.length, 5);
    assert.deepEqual(
      read.records.map((record) => record.line),
      [1, 2, 3, 4, 5],
    );
    const second = read.records[1];
    assert.equal(text.slice(second?.offset, second?.end).trim(), text.split('\n')[1]);
  });

  it('empty file: no records, no diagnostics', async () => {
    const read = await readForward(file(''));
    assert.deepEqual(read.records, []);
    assert.deepEqual(read.diagnostics, []);
  });

  it('truncated last line: a warning for a one-shot read, pending (no diagnostic) while following', async () => {
    const text = basicSession().toString();
    const path = file(`${text}{"type":"user","message":{"ro`);
    const once = await readForward(path);
    assert.deepEqual(codes(once.diagnostics), ['truncated-line']);
    assert.equal(once.diagnostics[0]?.line, 6);
    assert.equal(once.records.length, 5);
    const following = await readForward(path, { keepPending: true });
    assert.deepEqual(following.diagnostics, []);
    assert.equal(following.nextOffset, Buffer.byteLength(text));
  });

  it('a complete record without the final newline is accepted', async () => {
    const text = basicSession().toString().trimEnd();
    const read = await readForward(file(text));
    assert.equal(read.records.length, 5);
    assert.deepEqual(read.diagnostics, []);
  });

  it('invalid JSON mid-file: an error with its line number, the rest is read', async () => {
    const builder = new TranscriptBuilder();
    builder.user('one');
    builder.raw('{"type":"user", oops');
    builder.user('two');
    const read = await readForward(file(builder.toString()));
    assert.equal(read.records.length, 2);
    assert.deepEqual(codes(read.diagnostics), ['invalid-json']);
    assert.equal(read.diagnostics[0]?.severity, 'error');
    assert.equal(read.diagnostics[0]?.line, 2);
  });

  it('invalid UTF-8: a warning with the line, the record still parsed', async () => {
    const good = Buffer.from(`${JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'caf' } })}\n`);
    const bad = Buffer.from(good);
    bad[bad.indexOf('caf') + 3] = 0xe9; // Latin-1 é: not UTF-8
    bad[bad.indexOf('caf') + 4] = 0x22;
    const read = await readForward(
      file(Buffer.concat([Buffer.from('{"type":"summary","summary":"s"}\n'), bad.subarray(0, bad.indexOf('caf') + 5), Buffer.from('}}\n')])),
    );
    assert.deepEqual(codes(read.diagnostics), ['invalid-utf8']);
    assert.equal(read.diagnostics[0]?.line, 2);
    assert.equal(read.records.length, 2);
  });

  it('unknown record types are tolerated and counted once per type', async () => {
    const builder = basicSession();
    builder.record({ type: 'hologram', x: 1 }).record({ type: 'hologram', x: 2 }).record({ type: 'teleport' });
    const read = await readForward(file(builder.toString()));
    assert.equal(read.records.length, 8);
    assert.deepEqual(codes(read.diagnostics), ['unknown-record-type', 'unknown-record-type']);
    assert.match(read.diagnostics[0]?.message ?? '', /2 record\(s\) of unknown type 'hologram'/);
  });

  it('JSON that is not an object, NUL holes and blank lines', async () => {
    const read = await readForward(file(`[1,2]\n\n\u0000\u0000{"type":"summary","summary":"x"}\n   \n`));
    assert.deepEqual(codes(read.diagnostics), ['not-an-object', 'nul-bytes']);
    assert.equal(read.records.length, 1);
  });

  it('a 20 MB single line is parsed without blowing up', async () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    const builder = new TranscriptBuilder();
    builder.user('before');
    builder.toolResult('toolu_big', big);
    builder.user('after');
    const read = await readForward(file(builder.toString()));
    assert.deepEqual(read.diagnostics, []);
    assert.equal(read.records.length, 3);
    assert.equal(read.records[2]?.line, 3);
  });

  it('a missing file is an I/O error for the caller to turn into a result', async () => {
    await assert.rejects(readForward(join(tempDir(), 'gone.jsonl')), { code: 'ENOENT' });
  });
});

describe('LineSplitter', () => {
  it('keeps a partial line until its newline, whatever the chunking', () => {
    const text = 'alpha\nbeta\ngamma\n';
    for (let size = 1; size <= text.length; size++) {
      const splitter = new LineSplitter();
      const seen: string[] = [];
      for (let at = 0; at < text.length; at += size)
        splitter.push(Buffer.from(text.slice(at, at + size)), (bytes, line, offset, end) => seen.push(`${line}:${bytes}:${offset}-${end}`));
      assert.deepEqual(seen, ['1:alpha:0-6', '2:beta:6-11', '3:gamma:11-17']);
      assert.equal(splitter.pendingBytes, 0);
    }
  });
});
