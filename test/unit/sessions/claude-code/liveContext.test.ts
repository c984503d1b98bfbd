import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
    assert.deepEqual(context.entries.map((entry) => entry.kind), ['compact-summary', 'assistant']);
    assert.equal(context.entries[0]?.uuids[0], second.summary);
    assert.deepEqual(context.compactions.map((event) => [event.trigger, event.postTokens, event.focus]), [
      ['manual', 2000, 'focus on retries'],
      ['auto', 2500, null],
    ]);
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
    assert.deepEqual(result.value.messages.map((message) => message.content[0]?.text), ['start', 'retried']);
    assert.deepEqual(result.value.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]), [['invalid-json', 3]]);
  });

  it('re-reads from the start when a record after the boundary names an earlier parent', async () => {
    const builder = new TranscriptBuilder();
    const early = builder.user('early');
    builder.compact('summary');
    builder.from(early);
    builder.user('resumed from before the compaction');
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    assert.deepEqual(result.value.messages.flatMap((message) => message.content.map((block) => block.text)), ['early', 'resumed from before the compaction']);
    assert.deepEqual(result.value.entries[0]?.lines, [1, 4]);
  });

  it('missing and empty files', async () => {
    const missing = await readLiveContext(`${tempDir()}/none.jsonl`);
    assert.equal(missing.ok ? 'ok' : missing.error.code, 'not-found');
    const empty = await readLiveContext(new TranscriptBuilder().write(tempDir()));
    assert.ok(empty.ok);
    assert.deepEqual(empty.value.messages, []);
  });
});
