// The panel's instructions, left in the file of the agent's session as the extension writes it,
// reach the next proxied request of that session: a dropped tool result goes as a stub (below the
// trigger too), a kept one goes whole again and is never edited, the window and trigger move where
// batches start; another session is untouched; every edit is reported once, with the first request
// that carries it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { LiveInstructions } from '../../../src/proxy/instructions';
import { writePanelInstructions } from '../../../src/proxy/panelInstructions';
import { recallOriginal, sessionRecallDir } from '../../../src/proxy/recall';
import { DEFAULT_LIVE_OPTIONS, LiveRewriter, type LiveOptions } from '../../../src/proxy/rewrite';
import { agentSessionInBody, agentSessionOf } from '../../../src/proxy/session';
import { bytesOf, conversation, joinedPieces, type Conversation } from '../../support/proxyConversation';
import { tempDir } from '../../support/tempDir';

const SESSION = 'e312c332-1269-4f82-b8fb-6059e3c67fa5';
const OTHER = '0b7c4c47-8d43-4a8e-9c55-3a1f6f7d2e10';
const userId = (session: string): string => JSON.stringify({ device_id: 'd', account_uuid: '', session_id: session });
/** A conversation of the agent session whose panel said something. */
const ours = (turns: number): Conversation => conversation({ turns, userId: userId(SESSION) });

function rewriter(options: Partial<LiveOptions> = {}): {
  live: LiveRewriter;
  recall: string;
  say: (instructions: LiveInstructions, session?: string) => Promise<void>;
} {
  const root = tempDir('cl-proxy-instr-');
  const recall = join(root, 'recall');
  const panel = join(root, 'panel');
  const say = async (instructions: LiveInstructions, session = SESSION): Promise<void> => {
    const written = await writePanelInstructions(panel, session, instructions);
    assert.ok(written.ok);
  };
  return { live: new LiveRewriter({ ...DEFAULT_LIVE_OPTIONS, budgetMs: 5_000, ...options }, { recall, requests: join(root, 'requests'), panel }), recall, say };
}

const sent = (body: Buffer): Conversation => JSON.parse(body.toString('utf8')) as Conversation;
const resultText = (body: Conversation, id: string): unknown =>
  body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).find((block) => block.tool_use_id === id)?.content;

describe("the panel's say in the live proxy", () => {
  it('a tool result the person dropped goes as a stub from the next request on, below the trigger, recallable', async () => {
    const { live, recall, say } = rewriter();
    const body = ours(4);
    await say({ drop: ['toolu_000001'] });
    const first = await live.rewrite(bytesOf(body));
    assert.equal(first.action, 'edited', first.reason ?? '');
    assert.match(first.reason ?? '', /1 dropped by you/);
    assert.deepEqual(
      first.newEdits.map((edit) => [edit.toolUseId, edit.tier]),
      [['toolu_000001', 'choice']],
    );
    const stub = String(resultText(sent(joinedPieces(first.pieces)), 'toolu_000001'));
    assert.match(stub, /^\[DROPPED\] Read \/project\/src\/file1\.ts output/);
    const recalled = recallOriginal(sessionRecallDir(recall, SESSION), first.newEdits[0]!.ref);
    assert.ok(recalled.ok);
    // Another session cannot recall it.
    assert.equal(recallOriginal(sessionRecallDir(recall, OTHER), first.newEdits[0]!.ref).ok, false);
    assert.equal(recalled.value, resultText(body, 'toolu_000001'));
    assert.equal(resultText(sent(joinedPieces(first.pieces)), 'toolu_000002'), resultText(body, 'toolu_000002'), 'the rest whole');
    // Reported once: the next request carries it as a sticky edit.
    const again = await live.rewrite(bytesOf(ours(5)));
    assert.equal(again.action, 'sticky');
    assert.equal(again.stickyEdits, 1);
    assert.deepEqual(again.newEdits, []);
  });

  it("a drop goes with the request that first carries it even when the proxy was slow: a session's last request is not lost", async () => {
    // A proxy just started in a terminal is cold: its first drop once took longer than the budget on a loaded machine.
    const { live, say } = rewriter({ budgetMs: 0 });
    await say({ drop: ['toolu_000001'] });
    const first = await live.rewrite(bytesOf(ours(4)));
    assert.equal(first.action, 'edited');
    assert.match(first.reason ?? '', /^1 dropped by you; slow: /);
    assert.match(String(resultText(sent(joinedPieces(first.pieces)), 'toolu_000001')), /^\[DROPPED\] /);
  });

  it('a kept tool result the proxy had stubbed goes whole again and is not edited by later batches', async () => {
    const { live, say } = rewriter({ windowTokens: 20_000, triggerPercent: 50 });
    const first = await live.rewrite(bytesOf(ours(12)));
    assert.equal(first.action, 'edited', first.reason ?? '');
    const kept = first.newEdits[0]!.toolUseId;
    await say({ windowTokens: 20_000, triggerPercent: 50, keep: [kept] });
    const body = ours(13);
    const next = await live.rewrite(bytesOf(body));
    assert.deepEqual(next.restored, [kept]);
    assert.match(next.reason ?? '', /1 given back whole by your choice/);
    assert.equal(resultText(sent(joinedPieces(next.pieces)), kept), resultText(body, kept));
    for (let turns = 14; turns < 30; turns++) {
      const later = await live.rewrite(bytesOf(ours(turns)));
      assert.ok(!later.newEdits.some((edit) => edit.toolUseId === kept), `re-edited at ${turns} turns`);
      assert.deepEqual(later.restored, []);
    }
  });

  it('the window and trigger from the panel decide where batches start', async () => {
    const { live, say } = rewriter();
    const raw = bytesOf(ours(12));
    assert.equal((await live.rewrite(raw)).action, 'unchanged');
    await say({ windowTokens: 20_000, triggerPercent: 50 });
    const edited = await live.rewrite(raw);
    assert.equal(edited.action, 'edited');
    assert.match(edited.reason ?? '', /over the trigger \(\d+ > 10000 tokens\)/);
  });

  it("only the session the panel follows: another agent session through the same proxy keeps the proxy's own options", async () => {
    const { live, say } = rewriter();
    await say({ windowTokens: 20_000, triggerPercent: 50, drop: ['toolu_000001'] });
    const other = await live.rewrite(bytesOf(conversation({ turns: 12, userId: userId(OTHER) })));
    assert.equal(other.action, 'unchanged', other.reason ?? '');
    assert.equal(other.agentSession, OTHER);
    assert.equal((await live.rewrite(bytesOf(ours(12)))).action, 'edited');
  });

  it('a later say replaces the earlier one: a drop taken back (cleared, or turned into a keep) goes whole again', async () => {
    for (const takenBack of [{}, { keep: ['toolu_000001'] }]) {
      const { live, say } = rewriter();
      await say({ drop: ['toolu_000001', 'toolu_000002'] });
      assert.equal((await live.rewrite(bytesOf(ours(4)))).action, 'edited');
      await say({ ...takenBack, drop: ['toolu_000002'] });
      const body = ours(5);
      const next = await live.rewrite(bytesOf(body));
      assert.deepEqual(next.restored, ['toolu_000001']);
      assert.equal(next.action, 'sticky', 'the other drop stays');
      assert.equal(resultText(sent(joinedPieces(next.pieces)), 'toolu_000001'), resultText(body, 'toolu_000001'));
      assert.match(String(resultText(sent(joinedPieces(next.pieces)), 'toolu_000002')), /^\[DROPPED\]/);
    }
  });

  it('each edit is reported once, with the first request that carries it', async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50 });
    const raw = bytesOf(conversation({ turns: 12 }));
    const once = await live.rewrite(raw);
    const twice = await live.rewrite(raw);
    assert.ok(once.newEdits.length > 0);
    assert.equal(twice.action, 'sticky');
    assert.deepEqual(twice.newEdits, []);
    assert.equal(twice.stickyEdits, once.newEdits.length);
  });

  it('names the agent session from Claude Code metadata', async () => {
    const { live } = rewriter({ windowTokens: 20_000, triggerPercent: 50 });
    const id = 'e312c332-1269-4f82-b8fb-6059e3c67fa5';
    const result = await live.rewrite(bytesOf(conversation({ turns: 12, userId: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: id }) })));
    assert.equal(result.agentSession, id);
  });
});

describe('agentSessionInBody', () => {
  it('finds the session of a body below the trigger without parsing it, and nothing in a body without one', async () => {
    const id = 'e312c332-1269-4f82-b8fb-6059e3c67fa5';
    const body = conversation({ turns: 4, userId: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: id }) });
    assert.equal(agentSessionInBody(bytesOf(body)), id);
    assert.equal((await rewriter().live.rewrite(bytesOf(body))).agentSession, id);
    assert.equal(agentSessionInBody(bytesOf({ ...body, metadata: {} })), null);
    assert.equal(agentSessionInBody(Buffer.from('{"metadata":{"user_id":"unterminated')), null);
  });
});

describe('agentSessionOf', () => {
  it('reads both forms of metadata.user_id and nothing else', () => {
    const id = 'E312C332-1269-4f82-b8fb-6059e3c67fa5';
    assert.equal(agentSessionOf(JSON.stringify({ device_id: 'd', session_id: id })), id.toLowerCase());
    assert.equal(agentSessionOf(`user_abc_account_11111111-2222-3333-4444-555555555555_session_${id}`), id.toLowerCase());
    for (const other of [undefined, 42, 'user_test_session_1', '{"session_id":"not-a-uuid"}', '{broken', JSON.stringify({ session_id: 7 })])
      assert.equal(agentSessionOf(other), null);
  });
});
