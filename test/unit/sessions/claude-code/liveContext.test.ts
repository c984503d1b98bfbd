import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildTranscript, MB, template } from '../../../../bench/support/transcripts';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { TranscriptBuilder, basicSession, tempDir } from './builders';

describe('readLiveContext (synthetic)', () => {
  it('rebuilds the chain after the last compaction and keeps the whole compaction history', async () => {
    const builder = basicSession();
    builder.compact('first summary', { postTokens: 2000, userContext: 'focus on retries' });
    builder.text('msg_3', 'after one', { input: 3000, output: 10 });
    const second = builder.compact('second summary', { trigger: 'auto', postTokens: 2500 });
    builder.user('continue');
    builder.text('msg_4', 'done', { input: 3500, cacheRead: 100, output: 20 });
    const path = builder.write(tempDir());
    const result = await readLiveContext(path);
    assert.ok(result.ok);
    const context = result.value;
    assert.equal(context.source, 'chain');
    assert.deepEqual(
      context.entries.map((entry) => entry.kind),
      ['compact-summary', 'assistant'],
    );
    assert.equal(context.entries[0]?.uuids[0], second.summary);
    assert.deepEqual(
      context.compactions.map((event) => [event.trigger, event.postTokens, event.focus]),
      [
        ['manual', 2000, 'focus on retries'],
        ['auto', 2500, null],
      ],
    );
    assert.match(context.compactions[1]?.summary ?? '', /second summary/);
    assert.equal(context.fill.usedTokens, 3600);
    assert.equal(context.model, 'claude-sonnet-4-5');
    assert.deepEqual(context.diagnostics, []);
    assert.equal(context.session.id, 'session-1');
  });

  it('follows the newest branch and reports bad lines with their numbers', async () => {
    const builder = new TranscriptBuilder();
    const root = builder.user('start');
    builder.text('m1', 'abandoned', { input: 10, output: 1 });
    builder.raw('{broken');
    builder.from(root);
    builder.text('m2', 'retried', { input: 20, output: 2 });
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    assert.deepEqual(
      result.value.messages.map((message) => message.content[0]?.text),
      ['start', 'retried'],
    );
    assert.deepEqual(
      result.value.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
      [['invalid-json', 3]],
    );
  });

  it('re-reads from the start when a record after the boundary names an earlier parent', async () => {
    const builder = new TranscriptBuilder();
    const early = builder.user('early');
    builder.compact('summary');
    builder.from(early);
    builder.user('resumed from before the compaction');
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    assert.deepEqual(
      result.value.messages.flatMap((message) => message.content.map((block) => block.text)),
      ['early', 'resumed from before the compaction'],
    );
    assert.deepEqual(result.value.entries[0]?.lines, [1, 4]);
  });

  it('a partial compaction: reads back to the segment it preserved, with real line numbers', async () => {
    const builder = new TranscriptBuilder();
    builder.user('dropped by the compaction', { uuid: 'old' });
    builder.user('kept one', { uuid: 'k1' });
    builder.user('kept two', { uuid: 'k2' });
    builder.record({
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'cb',
      parentUuid: null,
      logicalParentUuid: 'k2',
      isSidechain: false,
      timestamp: '2026-01-01T00:01:00.000Z',
      compactMetadata: { trigger: 'manual', preTokens: 9000, postTokens: 900, preservedSegment: { headUuid: 'k1', anchorUuid: 'sum', tailUuid: 'k2' } },
    });
    builder.from('cb');
    builder.user('summary', { uuid: 'sum', isCompactSummary: true });
    builder.user('next', { uuid: 'next' });
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    assert.deepEqual(
      result.value.entries.map((entry) => [entry.uuids, entry.lines]),
      [
        [
          ['sum', 'k1', 'k2', 'next'],
          [5, 2, 3, 6],
        ],
      ],
    );
    assert.deepEqual(
      result.value.compactions.map((event) => [event.uuid, event.line]),
      [['cb', 4]],
    );
  });

  it('a torn last line is reported with its line number', async () => {
    const path = basicSession().write(tempDir());
    appendFileSync(path, '{"type":"user","mess');
    const result = await readLiveContext(path);
    assert.ok(result.ok);
    assert.deepEqual(
      result.value.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
      [['truncated-line', 6]],
    );
    assert.equal(result.value.messages.length, 4);
  });

  it('the compaction history follows appends and notices a rewritten file', async () => {
    const builder = basicSession();
    builder.compact('first summary', { postTokens: 2000 });
    const path = builder.write(tempDir());
    const first = await readLiveContext(path);
    assert.ok(first.ok);
    assert.deepEqual(
      first.value.compactions.map((event) => [event.trigger, event.line]),
      [['manual', 6]],
    );
    const more = new TranscriptBuilder();
    more.compact('second summary', { trigger: 'auto', postTokens: 2500 });
    appendFileSync(path, more.toString());
    const second = await readLiveContext(path);
    assert.ok(second.ok);
    assert.deepEqual(
      second.value.compactions.map((event) => [event.trigger, event.line, event.summary?.includes('second') ?? false]),
      [
        ['manual', 6, false],
        ['auto', 8, true],
      ],
    );
    assert.equal(first.value.compactions.length, 1, 'what an earlier caller got stays as it was');
    // Same path, same size or larger, other content: read again from the start.
    const other = new TranscriptBuilder('session-2');
    for (let turn = 0; turn < 5; turn++) other.user(`a longer conversation ${turn} ${'x'.repeat(500)}`);
    writeFileSync(path, other.toString());
    const third = await readLiveContext(path);
    assert.ok(third.ok);
    assert.deepEqual(third.value.compactions, []);
    assert.deepEqual(third.value.entries[0]?.lines, [1, 2, 3, 4, 5]);
  });

  it('rebuilds the recorded request when its base request and shape were written before the last compaction', async () => {
    const builder = new TranscriptBuilder();
    builder.record({ type: 'api-request-shape', shapeHash: 's1', shape: { system: [{ type: 'text', text: 'SYSTEM PROMPT' }], tools: [{ name: 'Read' }] } });
    builder.record({ type: 'api-request-blob', hash: 'h1', message: { role: 'user', content: 'the prompt as sent' } });
    builder.record({ type: 'api-request', id: 'r1', base: null, keep: 0, tail: ['h1'], shapeHash: 's1', params: { model: 'claude-sonnet-4-5' } });
    builder.user('the prompt');
    builder.text('msg_1', 'first answer', { input: 100, output: 5 }, undefined, { requestRef: 'r1' });
    builder.compact('summary', { postTokens: 50 });
    builder.record({ type: 'api-request', id: 'r2', base: 'r1', keep: 1, tail: [], shapeHash: 's1', params: { model: 'claude-sonnet-4-5' } });
    builder.text('msg_2', 'second answer', { input: 60, output: 5 }, undefined, { requestRef: 'r2' });
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    assert.equal(result.value.source, 'request');
    assert.equal(result.value.system?.[0]?.text, 'SYSTEM PROMPT');
    assert.equal(result.value.messages[0]?.content[0]?.text, 'the prompt as sent');
    assert.deepEqual(result.value.diagnostics, []);
  });

  it('missing and empty files', async () => {
    const missing = await readLiveContext(`${tempDir()}/none.jsonl`);
    assert.equal(missing.ok ? 'ok' : missing.error.code, 'not-found');
    const empty = await readLiveContext(new TranscriptBuilder().write(tempDir()));
    assert.ok(empty.ok);
    assert.deepEqual(empty.value.messages, []);
  });
});

describe('readLiveContext on a compaction whose preserved segment is not in the file', () => {
  it('starts the live context at the compaction with a diagnostic, reading nothing before it but a bounded search', async () => {
    const dir = tempDir();
    const path = join(dir, 'dangling.jsonl');
    buildTranscript(template(), path, { bytes: 2 * MB, liveBytes: 200 * 1024, preserved: 'dangling' });
    const present = join(dir, 'present.jsonl');
    buildTranscript(template(), present, { bytes: 2 * MB, liveBytes: 200 * 1024, preserved: 'present' });
    const dangling = await readLiveContext(path);
    assert.ok(dangling.ok);
    assert.deepEqual(
      dangling.value.diagnostics.map((diagnostic) => diagnostic.code),
      ['preserved-segment-missing'],
    );
    const kept = await readLiveContext(present);
    assert.ok(kept.ok);
    assert.deepEqual(kept.value.diagnostics, []);
    // The present segment is spliced in after the summary: two more turns than the dangling one.
    assert.equal(kept.value.messages.length, dangling.value.messages.length + 2);
    assert.equal(dangling.value.fill.usedTokens, kept.value.fill.usedTokens);
  });

  it('says where the live context starts in the file: at the compaction, or before it at a preserved segment', async () => {
    const dir = tempDir();
    const offsetOf = (path: string, uuid: string): number => {
      const text = readFileSync(path, 'utf8');
      return Buffer.byteLength(text.slice(0, text.lastIndexOf('\n', text.indexOf(`"uuid":"${uuid}"`)) + 1));
    };
    const plain = join(dir, 'plain.jsonl');
    const built = buildTranscript(template(), plain, { bytes: 2 * MB, liveBytes: 200 * 1024 });
    const live = await readLiveContext(plain);
    assert.ok(live.ok);
    assert.equal(live.value.startOffset, offsetOf(plain, built.boundaryUuid as string));
    const present = join(dir, 'present.jsonl');
    const kept = buildTranscript(template(), present, { bytes: 2 * MB, liveBytes: 200 * 1024, preserved: 'present' });
    const withSegment = await readLiveContext(present);
    assert.ok(withSegment.ok);
    assert.ok((withSegment.value.startOffset ?? Infinity) < offsetOf(present, kept.boundaryUuid as string));
  });
});

describe('readLiveContext on a file whose live conversation starts at a root of its own', () => {
  it('starts the live context at that root, with nothing to report: the older conversation before it ends at its own root', async () => {
    const dir = tempDir();
    const path = join(dir, 'rooted.jsonl');
    const built = buildTranscript(template(), path, { bytes: 2 * MB, rootBytes: 200 * 1024 });
    const text = readFileSync(path, 'utf8');
    const rootOffset = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n', text.indexOf(`"uuid":"${built.rootUuid as string}"`)) + 1));
    const live = await readLiveContext(path);
    assert.ok(live.ok);
    assert.equal(live.value.startOffset, rootOffset);
    assert.ok(rootOffset > 1.5 * MB);
    assert.deepEqual(live.value.diagnostics, []);
    assert.equal(live.value.source, 'request');
  });
});
