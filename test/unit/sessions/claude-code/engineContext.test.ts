import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { compact, sumTokens } from '../../../../src/engine';
import { IN_PLACE_NOTE } from '../../../../src/sessions/common/forkTexts';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { forkRequestFromResult } from '../../../../src/sessions/claude-code/engineContext';
import { readFill } from '../../../../src/sessions/claude-code/fill';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { writeFork } from '../../../../src/sessions/claude-code/fork';
import { claudeTranscripts } from '../../../support/claudeFixtures';
import { tempDir } from '../../../support/tempDir';

const transcripts = (): string[] => claudeTranscripts().map((transcript) => transcript.path);

describe('engineContextOf', () => {
  it('takes what Claude Code sent in system-role messages for reminders, not for something the person typed', async () => {
    const path = transcripts().find((transcript) => transcript.includes('/multi-prompt/'));
    assert.ok(path);
    const live = await readLiveContext(path);
    assert.ok(live.ok && live.value.source === 'request');
    const context = engineContextOf(live.value);
    const identity = context.items.find((item) => item.text.includes('You are powered by the model named'));
    assert.equal(identity?.kind, 'reminder');
    assert.deepEqual(
      context.items.filter((item) => item.kind === 'user').map((item) => item.text.slice(0, 30)),
      ['Add an optional timeoutMs to c', 'Does config/prod.yaml already ', 'OK. Add a small smoke test for'],
    );
  });

  for (const { name, path } of claudeTranscripts()) {
    it(`maps ${name} with the gauge's exact total and a sourceRef on every message item`, async () => {
      const live = await readLiveContext(path);
      assert.ok(live.ok);
      const fill = await readFill(path);
      assert.ok(fill.ok);
      const context = engineContextOf(live.value);
      const { usedTokens, outputTokensPending } = fill.value.fill;
      // What the calls measured is the gauge's exact count (with the last response's output once it
      // joins the next request); what was written after it is estimated item by item. Nothing is
      // measured before a first response (a session started with /clear, say).
      assert.equal(sumTokens(context.items), context.usedTokens);
      if (usedTokens > 0) {
        assert.equal(context.measuredTokens, usedTokens + outputTokensPending);
        const estimated = context.items.filter((item) => item.basis === 'estimated');
        assert.equal(sumTokens(estimated), context.usedTokens - usedTokens - outputTokensPending);
        assert.equal(context.usedSource, 'usage');
      } else assert.equal(context.usedSource, 'estimate');
      assert.equal(context.windowTokens, live.value.fill.windowTokens);
      for (const item of context.items) {
        if (item.messageIndex < 0) continue;
        assert.deepEqual(item.sourceRef, live.value.entries[item.messageIndex]?.uuids, `item #${item.id}`);
      }
      const summaries = live.value.entries.filter((entry) => entry.kind === 'compact-summary').map((entry) => entry.messageIndex);
      for (const index of summaries) assert.ok(context.items.some((item) => item.messageIndex === index && item.kind === 'summary'));
    });
  }
});

describe('forkRequestFromResult', () => {
  it('writes compacted tool results (stubs, truncations) into the fork in place, tool ids intact', async () => {
    const source = transcripts().find((path) => path.includes('/repeated-reads/'));
    assert.ok(source);
    const copy = join(tempDir('cl-fork-inplace-'), basename(source));
    copyFileSync(source, copy);
    const live = await readLiveContext(copy);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    // Tiers 1–3 only, with a small recent window (the fixture is far below 10 % of 200k).
    const result = await compact(context, { trigger: 'manual', summary: { enabled: false }, preserve: { recentTurns: 1, recentPercent: 0 } });
    assert.equal(result.status, 'compacted', result.message);
    const stubbed = result.items.filter((item) => item.fate === 'compacted' && item.tier === 'supersede');
    assert.ok(stubbed.length > 0, 'the fixture reads the same file repeatedly');

    const request = await forkRequestFromResult({ live: live.value, context, result, focus: null });
    assert.ok(request.ok, request.ok ? '' : request.error.message);
    assert.equal(request.value.summary, IN_PLACE_NOTE);
    const fork = await writeFork(request.value);
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);

    const forked = await readLiveContext(fork.value.path);
    assert.ok(forked.ok);
    assert.deepEqual(forked.value.diagnostics, []);
    const sent = JSON.stringify(forked.value.messages);
    assert.match(sent, /\[COMPACTED\] Earlier Read output for /);
    const ids = (messages: typeof forked.value.messages) =>
      messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.id));
    assert.deepEqual(ids(forked.value.messages), ids(live.value.messages));
  });
});

describe('engineContextOf on a transcript without request records', () => {
  it('shows what the messages do not account for as the unrecorded system prompt and tools', async () => {
    const { TranscriptBuilder, tempDir } = await import('./builders');
    const builder = new TranscriptBuilder();
    builder.user('hi');
    // 18k tokens sent, of which the messages are a handful: the rest was the system prompt and tools.
    builder.text('msg_1', 'Hello!', { input: 4, cacheCreation: 18_000, output: 6 });
    const live = await readLiveContext(builder.write(tempDir()));
    assert.ok(live.ok && live.value.source === 'chain');
    const context = engineContextOf(live.value);
    const head = context.items.filter((item) => item.unrecorded);
    assert.equal(head.length, 1);
    assert.ok((head[0]?.tokens ?? 0) > 17_900, `unrecorded ${head[0]?.tokens}`);
    // The response weighs exactly its output; the head is the first prompt minus its one message.
    const assistant = context.items.find((item) => item.kind === 'assistant');
    assert.equal(assistant?.tokens, 6);
    assert.equal(assistant?.basis, 'measured');
    assert.ok((head[0]?.tokens ?? 0) <= 18_004);
    assert.equal(sumTokens(context.items), live.value.fill.usedTokens + live.value.fill.outputTokensPending);
  });
});
