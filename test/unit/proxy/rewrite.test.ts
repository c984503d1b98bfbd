// The live rewrite: nothing changes below the trigger; above it a batch stubs superseded reads, and
// every later request carries exactly the same edits (sticky) so consecutive requests share their
// prefix; anything unexpected sends the original bytes.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeCompactionRequest } from '../../../src/proxy/control';
import { recallOriginal, sessionRecallDir } from '../../../src/proxy/recall';
import { DEFAULT_LIVE_OPTIONS, LiveRewriter, type LiveDirs, type LiveOptions } from '../../../src/proxy/rewrite';
import { bytesOf, conversation, joinedPieces, type Conversation } from '../../support/proxyConversation';
import { breakEvenSentence } from '../../../src/protocol/format';
import { tempDir } from '../../support/tempDir';

function rewriter(options: Partial<LiveOptions> = {}): { live: LiveRewriter; dirs: LiveDirs } {
  const root = tempDir('cl-proxy-');
  const dirs = { recall: join(root, 'recall'), requests: join(root, 'requests'), panel: join(root, 'panel') };
  return { live: new LiveRewriter({ ...DEFAULT_LIVE_OPTIONS, budgetMs: 5_000, ...options }, dirs), dirs };
}

const sent = (body: Buffer): Conversation => JSON.parse(body.toString('utf8')) as Conversation;
const resultText = (body: Conversation, id: string): unknown =>
  body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).find((block) => block.tool_use_id === id)?.content;

describe('LiveRewriter', () => {
  it('never changes a word the person typed, even with the summary tier on (issue 23)', async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50, engine: { summary: { enabled: true } } });
    const body = conversation({ turns: 12 });
    body.messages.splice(
      1,
      0,
      { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
      { role: 'user', content: 'Stick to two-space indentation in everything you write. Remind me to ask about Windows paths before we ship.' },
    );
    const typed = (conversation: Conversation): unknown[] =>
      conversation.messages.filter((message) => message.role === 'user' && typeof message.content === 'string').map((message) => message.content);
    const result = await live.rewrite(bytesOf(body));
    assert.equal(result.action, 'edited', result.reason ?? '');
    assert.deepEqual(typed(sent(joinedPieces(result.pieces))), typed(body));
  });

  it('below the trigger the original bytes go unchanged', async () => {
    const { live } = rewriter();
    const raw = bytesOf(conversation({ turns: 4 }));
    const result = await live.rewrite(raw);
    assert.equal(result.action, 'unchanged');
    assert.equal(result.changed, false);
    assert.equal(joinedPieces(result.pieces), raw);
  });

  it('above the trigger superseded reads become stubs naming a ref, archived 0600 and recallable', async () => {
    const { live, dirs } = rewriter({ windowTokens: 20_000, triggerPercent: 50 });
    const body = conversation({ turns: 12 });
    const result = await live.rewrite(bytesOf(body));
    assert.equal(result.action, 'edited', result.reason ?? '');
    assert.ok(result.newEdits.length > 0);
    assert.ok(result.sentTokens < result.agentTokens);
    const first = result.newEdits[0];
    assert.ok(first);
    const stub = resultText(sent(joinedPieces(result.pieces)), first.toolUseId);
    assert.equal(typeof stub, 'string');
    assert.match(String(stub), /ctx-lens:[0-9a-f]{16}/);
    assert.ok(String(stub).includes(first.ref));
    const recalled = recallOriginal(sessionRecallDir(dirs.recall, null), first.ref);
    assert.ok(recalled.ok);
    assert.equal(recalled.value, resultText(body, first.toolUseId));
    const archived = sessionRecallDir(dirs.recall, null);
    assert.equal(statSync(archived).mode & 0o777, 0o700);
    for (const name of readdirSync(archived)) assert.equal(statSync(join(archived, name)).mode & 0o777, 0o600);
    assert.ok(result.newEdits.some((edit) => edit.tier === 'supersede'));
  });

  it("a batch says whether it pays at its model's prices (the event's breakEven); an unpriced model says nothing", async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50 });
    const body = { ...conversation({ turns: 12 }), model: 'claude-sonnet-4-5-20250929' };
    const result = await live.rewrite(bytesOf(body));
    assert.equal(result.action, 'edited', result.reason ?? '');
    const pays = result.breakEven;
    assert.ok(pays);
    const saved = Number(/−(\d+) tokens/.exec(result.reason ?? '')?.[1]);
    const before = result.agentTokens;
    // Sonnet 4.5: the kept tokens written at $3.75 instead of read at $0.30 per million; the removed ones no longer read at $0.30.
    assert.ok(Math.abs(pays.oneOffUsd - ((before - saved) * 3.45) / 1e6) < 1e-9, JSON.stringify(pays));
    assert.ok(Math.abs(pays.savingPerCallUsd - (saved * 0.3) / 1e6) < 1e-9, JSON.stringify(pays));
    assert.equal(pays.breakEvenCalls, Math.ceil(pays.oneOffUsd / pays.savingPerCallUsd));
    assert.equal(pays.model, 'claude-sonnet-4-5-20250929');
    assert.equal(pays.sentence, breakEvenSentence(pays));
    // The next request carries the same edits: no new batch, no break-even of its own.
    assert.equal((await live.rewrite(bytesOf(body))).breakEven, undefined);
    const unpriced = await rewriter({ windowTokens: 20_000, triggerPercent: 50 }).live.rewrite(bytesOf(conversation({ turns: 12 })));
    assert.equal(unpriced.action, 'edited');
    assert.equal(unpriced.breakEven, undefined);
  });

  it('edits are sticky: every later request carries them byte for byte and keeps the previous request as its prefix', async () => {
    // About 1k tokens per turn into a 60k window: a batch every few turns at most.
    const { live } = rewriter({ windowTokens: 60_000, triggerPercent: 50, minBatchTokens: 1_000 });
    let previous: Conversation | undefined;
    let batches = 0;
    let prefixKept = 0;
    const stubs = new Map<string, unknown>();
    for (let turns = 25; turns < 55; turns++) {
      const result = await live.rewrite(bytesOf(conversation({ turns })));
      const now = sent(joinedPieces(result.pieces));
      if (result.action === 'edited') batches += 1;
      for (const [id, text] of stubs) assert.deepEqual(resultText(now, id), text, `edit of ${id} changed at ${turns} turns`);
      for (const edit of result.newEdits) stubs.set(edit.toolUseId, resultText(now, edit.toolUseId));
      // The last user message of the previous request is the one that grows; everything before it stays.
      if (previous && JSON.stringify(now.messages.slice(0, previous.messages.length - 2)) === JSON.stringify(previous.messages.slice(0, -2))) prefixKept += 1;
      previous = now;
    }
    assert.ok(batches >= 1 && batches <= 6, `batches: ${batches}`);
    assert.ok(prefixKept >= 29 - batches, `prefix kept in ${prefixKept} of 29`);
    assert.ok(stubs.size > 0);
  });

  it('the same request twice gives the same bytes (deterministic)', async () => {
    const raw = bytesOf(conversation({ turns: 12 }));
    const a = await rewriter({ windowTokens: 20_000, triggerPercent: 50 }).live.rewrite(raw);
    const b = await rewriter({ windowTokens: 20_000, triggerPercent: 50 }).live.rewrite(raw);
    assert.ok(joinedPieces(a.pieces).equals(joinedPieces(b.pieces)));
  });

  it('a batch too small to be worth a cache rewrite is not sent', async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50, minBatchTokens: 1_000_000 });
    const result = await live.rewrite(bytesOf(conversation({ turns: 12 })));
    assert.equal(result.action, 'unchanged');
    assert.match(result.reason ?? '', /not worth a cache rewrite/);
  });

  it('fails open on bodies it does not know: original bytes, the reason recorded', async () => {
    const { live } = rewriter({ windowTokens: 100, triggerPercent: 10 });
    // Padded past the trigger: smaller bodies go unread, as they came.
    const pad = ' '.repeat(200);
    for (const raw of [
      Buffer.from(`not json${pad}`),
      Buffer.from(`${JSON.stringify({ messages: 'x' })}${pad}`),
      Buffer.from(`${JSON.stringify({ messages: [{ role: 'robot', content: 'x' }] })}${pad}`),
      Buffer.from(`${JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'no type' }] }] })}${pad}`),
    ]) {
      const result = await live.rewrite(raw);
      assert.equal(result.action, 'failed-open');
      assert.equal(joinedPieces(result.pieces), raw);
      assert.match(result.reason ?? '', /unknown shape/);
    }
  });

  it('a batch that took longer than the time budget is still sent (the time is spent), and its reason says it was slow', async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50, budgetMs: 0 });
    const raw = bytesOf(conversation({ turns: 12 }));
    const first = await live.rewrite(raw);
    assert.equal(first.action, 'edited');
    assert.ok(joinedPieces(first.pieces).length < raw.length);
    assert.match(first.reason ?? '', /^batch 1, .*; slow: \d+\.\d ms, over the 0 ms budget$/);
    assert.equal(first.newEdits.length, live.sessions.peek(first.session)?.edits.size);
  });

  it('side calls (no tools) are never compacted', async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50 });
    const body = { ...conversation({ turns: 12 }), tools: [] };
    const result = await live.rewrite(bytesOf(body));
    assert.equal(result.action, 'unchanged');
  });

  it('a compact_context request is applied to the next main request below the trigger too', async () => {
    const { live, dirs } = rewriter();
    const written = writeCompactionRequest(dirs.requests, { reason: 'task boundary', focus: 'file2.ts' });
    assert.ok(written.ok);
    const body = conversation({ turns: 30 });
    const result = await live.rewrite(bytesOf(body));
    assert.equal(result.action, 'edited', result.reason ?? '');
    assert.match(result.reason ?? '', /compact_context: task boundary/);
    assert.deepEqual(readdirSync(dirs.requests), []);
    // The focus keeps what mentions it verbatim.
    assert.ok(
      result.newEdits.every((edit) => !String(resultText(body, edit.toolUseId)).includes('file2.ts')),
      'focus',
    );
    const again = await live.rewrite(bytesOf(body));
    assert.equal(again.action, 'sticky');
  });

  it('a batch sizes what it edits from the usage of the calls before it, and forgets calls measured under other edits', async () => {
    // Results of file 0 cost three times what the others do, though all are the same length (a dense file).
    const sizeOf = (turn: number): number => (turn % 3 === 0 ? 600 : 200);
    // The call after `turns` rounds is followed by the result of round `turns` (the test conversation
    // ends each request with a closing pair, which the next request's round takes the place of).
    const promptOf = (turns: number): number => 2_000 + Array.from({ length: turns + 1 }, (_, turn) => sizeOf(turn) + 10).reduce((a, b) => a + b, 0);
    const { live, dirs } = rewriter({ windowTokens: 20_000, triggerPercent: 75 });
    // From half the trigger on (~7 turns of 4 KB at 1/4 token a byte) requests are read and their usage kept.
    for (let turns = 4; turns < 30; turns++) {
      const raw = bytesOf(conversation({ turns }));
      const result = await live.rewrite(raw);
      assert.equal(result.action, 'unchanged');
      live.recordUsage(
        result.session,
        raw.length,
        { inputTokens: 10, cacheReadTokens: promptOf(turns) - 10, cacheCreationTokens: 0, outputTokens: 10 },
        result.sent,
      );
    }
    assert.ok(writeCompactionRequest(dirs.requests, { reason: 'measured', focus: '' }).ok);
    const batch = await live.rewrite(bytesOf(conversation({ turns: 30 })));
    assert.equal(batch.action, 'edited', batch.reason ?? '');
    assert.ok(batch.sent);
    const turnOf = (id: string): number => Number(id.slice(-6));
    const measured = batch.newEdits.filter((edit) => turnOf(edit.toolUseId) >= 10);
    const dense = measured.filter((edit) => turnOf(edit.toolUseId) % 3 === 0);
    const light = measured.filter((edit) => turnOf(edit.toolUseId) % 3 !== 0);
    assert.ok(dense.length > 0 && light.length > 0, JSON.stringify(batch.newEdits));
    for (const edit of dense) assert.ok(Math.abs(edit.tokensBefore - 600) <= 10, `${edit.toolUseId}: ${edit.tokensBefore}`);
    for (const edit of light) assert.ok(Math.abs(edit.tokensBefore - 200) <= 10, `${edit.toolUseId}: ${edit.tokensBefore}`);
    // The batch changed what is sent: a response to a request sent before it measures nothing now.
    const state = live.sessions.peek(batch.session);
    assert.equal(state?.calls.length, 0);
    const usage = { inputTokens: 50_000, cacheReadTokens: 0, cacheCreationTokens: 0, outputTokens: 10 };
    live.recordUsage(batch.session, 1_000, usage, { ...batch.sent, generation: batch.sent.generation - 1 });
    assert.equal(state?.calls.length, 0);
    live.recordUsage(batch.session, 1_000, usage, batch.sent);
    assert.equal(state?.calls.length, 1);
  });

  it('a compact_context request is applied to the session that asked, never to another one; one naming no session only while a single session is served', async () => {
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const bodyOf = (id: string): Buffer => bytesOf(conversation({ turns: 30, userId: JSON.stringify({ session_id: id }) }));
    const { live, dirs } = rewriter();
    assert.ok(writeCompactionRequest(dirs.requests, { reason: 'for A', focus: '', session: ids[0] }).ok);
    const other = await live.rewrite(bodyOf(ids[1] as string));
    assert.equal(other.action, 'unchanged', other.reason ?? '');
    assert.equal(readdirSync(dirs.requests).length, 1, 'left for the session that asked');
    const asked = await live.rewrite(bodyOf(ids[0] as string));
    assert.equal(asked.action, 'edited');
    assert.match(asked.reason ?? '', /compact_context: for A/);
    // Two sessions served: a request that names none is left alone (and dropped once stale).
    assert.ok(writeCompactionRequest(dirs.requests, { reason: 'whose?', focus: '' }).ok);
    const neither = await live.rewrite(bodyOf(ids[1] as string));
    assert.doesNotMatch(neither.reason ?? '', /whose\?/);
    const single = rewriter();
    assert.ok(writeCompactionRequest(single.dirs.requests, { reason: 'only one here', focus: '' }).ok);
    const alone = await single.live.rewrite(bodyOf(ids[0] as string));
    assert.match(alone.reason ?? '', /compact_context: only one here/);
  });
});
