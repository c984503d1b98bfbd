// Properties of the live rewrite over generated sessions (how many files are read again and again,
// how long each read is, the window, the trigger, the budget for a batch, drops from the panel),
// each request the previous one grown by a few tool calls:
// - only tool results change, each in place: every other byte of every message, every tool_use and
//   its pairing stay as the agent sent them, and an edited result names a ref that gives back
//   exactly the original;
// - a request the proxy leaves alone goes as the very bytes that came in;
// - edits are sticky: a result edited once is sent identically in every later request, so a
//   request without new edits keeps the previous request's messages as its prefix;
// - any body it cannot read goes unchanged (fail open) and nothing throws.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { writePanelInstructions } from '../../../src/proxy/panelInstructions';
import { recallOriginal, REF_IN_TEXT, sessionRecallDir } from '../../../src/proxy/recall';
import { DEFAULT_LIVE_OPTIONS, LiveRewriter } from '../../../src/proxy/rewrite';
import { bytesOf, conversation, joinedPieces, type Conversation } from '../../support/proxyConversation';

const SESSION = '6c1f7f0e-3b7a-4d59-9f0e-2f4c1d7b9a11';
const USER_ID = JSON.stringify({ device_id: 'd', account_uuid: '', session_id: SESSION });

type Block = Record<string, unknown>;
const blocks = (body: Conversation): Block[] => body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
/** Every message but the closing pair the generator appends after the last read. */
const reads = (body: Conversation): Conversation['messages'] => body.messages.slice(0, -2);

const session = fc.record({
  files: fc.integer({ min: 1, max: 5 }),
  resultChars: fc.integer({ min: 200, max: 3_000 }),
  windowTokens: fc.integer({ min: 4_000, max: 40_000 }),
  triggerPercent: fc.integer({ min: 20, max: 90 }),
  minBatchTokens: fc.integer({ min: 0, max: 3_000 }),
  growth: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 10 }),
  drops: fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 3 }),
});

describe('the live rewrite (fast-check)', () => {
  it('changes only tool results, in place and recallably; sends untouched bytes when it edits nothing; keeps every edit sticky', async () => {
    await fc.assert(
      fc.asyncProperty(session, async (generated) => {
        const root = mkdtempSync(join(tmpdir(), 'cl-proxy-prop-'));
        try {
          const dirs = { recall: join(root, 'recall'), requests: join(root, 'requests'), panel: join(root, 'panel') };
          const live = new LiveRewriter(
            {
              ...DEFAULT_LIVE_OPTIONS,
              windowTokens: generated.windowTokens,
              triggerPercent: generated.triggerPercent,
              minBatchTokens: generated.minBatchTokens,
              budgetMs: 60_000,
            },
            dirs,
          );
          if (generated.drops.length > 0)
            await writePanelInstructions(dirs.panel, SESSION, { drop: generated.drops.map((turn) => `toolu_${String(turn).padStart(6, '0')}`) });
          const sentBefore = new Map<string, unknown>();
          let previous: Conversation | undefined;
          let turns = 0;
          for (const step of generated.growth) {
            turns += step;
            const original = conversation({ turns, files: generated.files, resultChars: generated.resultChars, userId: USER_ID });
            const raw = bytesOf(original);
            const result = await live.rewrite(raw);
            assert.notEqual(result.action, 'failed-open', result.reason ?? '');
            if (!result.changed) assert.equal(joinedPieces(result.pieces), raw, 'the very bytes that came in');
            const sent = JSON.parse(joinedPieces(result.pieces).toString('utf8')) as Conversation;
            // Only tool results change, each where it was.
            assert.deepEqual({ ...sent, messages: [] }, { ...original, messages: [] });
            assert.equal(sent.messages.length, original.messages.length);
            const sentBlocks = blocks(sent);
            blocks(original).forEach((block, index) => {
              const out = sentBlocks[index] ?? {};
              if (block.type !== 'tool_result') return assert.deepEqual(out, block);
              assert.deepEqual({ ...out, content: null }, { ...block, content: null });
              if (out.content === block.content) return;
              const ref = REF_IN_TEXT.exec(String(out.content))?.[0];
              assert.ok(ref, `an edited result names its ref: ${String(out.content).slice(0, 120)}`);
              const recalled = recallOriginal(sessionRecallDir(dirs.recall, SESSION), ref);
              assert.ok(recalled.ok && recalled.value === block.content, 'the ref gives back the original');
            });
            // Sticky: what was sent in place of a result is sent again, identically.
            for (const block of sentBlocks) {
              if (block.type !== 'tool_result') continue;
              const id = String(block.tool_use_id);
              if (sentBefore.has(id) && sentBefore.get(id) !== blocks(original).find((one) => one.tool_use_id === id)?.content)
                assert.equal(block.content, sentBefore.get(id), `${id} sent as before`);
              sentBefore.set(id, block.content);
            }
            // A request with no new edit keeps the previous one's messages as its prefix (the prompt cache).
            if (previous && result.newEdits.length === 0) assert.deepEqual(sent.messages.slice(0, reads(previous).length), reads(previous));
            previous = sent;
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('forwards any body it cannot read byte for byte, and never throws', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cl-proxy-prop-'));
    const live = new LiveRewriter(
      { ...DEFAULT_LIVE_OPTIONS, windowTokens: 1_000, triggerPercent: 10 },
      { recall: join(root, 'recall'), requests: join(root, 'requests'), panel: join(root, 'panel') },
    );
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
      fc.json().map((text) => Buffer.from(text)),
      fc
        .record({ messages: fc.array(fc.anything(), { maxLength: 5 }), tools: fc.anything(), system: fc.anything() }, { requiredKeys: ['messages'] })
        .map((value) => Buffer.from(JSON.stringify(value) ?? '')),
    );
    try {
      await fc.assert(
        fc.asyncProperty(body, async (raw) => {
          const result = await live.rewrite(raw);
          if (result.changed) {
            // Only a body of the shape it knows can be edited: it is JSON with a messages array.
            assert.ok(Array.isArray((JSON.parse(raw.toString('utf8')) as { messages?: unknown }).messages));
          } else {
            assert.equal(joinedPieces(result.pieces), raw);
          }
        }),
        { numRuns: 300 },
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
