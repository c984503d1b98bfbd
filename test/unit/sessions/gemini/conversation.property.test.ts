// The conversation a chat holds is the CLI's: any sequence of messages (ids written again), history
// snapshots and rewinds, read from a file, gives the same live messages as a plain model of the
// CLI's rules (a Map: a known id replaced in place; `$set.messages` replaces all; `$rewindTo` cuts at
// that id, or clears all when unknown). The fill is the newest live count, and damaged lines mixed
// in change nothing but the diagnostics.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { readChat } from '../../../../src/sessions/gemini/chatState';
import { gemini, HEADER, user } from './syntheticChat';

type Op = { kind: 'message'; id: string; input: number; version: number } | { kind: 'snapshot'; ids: string[] } | { kind: 'rewind'; id: string };

const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('message' as const), id, input: fc.nat({ max: 5000 }), version: fc.nat({ max: 9 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const), ids: fc.uniqueArray(id, { maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), id }) },
);
const damaged = fc.constantFrom('{"id":"torn', 'not json', '[1]', '{"$rewindTo":5}', '{"$set":{"messages":7}}', '\u0000\u0000');

/** Ids starting a-c are gemini messages with counts (0: none), the rest user prompts. */
function record(op: Extract<Op, { kind: 'message' }>): Record<string, unknown> {
  return op.id <= 'c' ? gemini(op.id, `v${op.version}`, op.input) : user(op.id, `v${op.version}`);
}

/** The CLI's rules, kept as plain as possible. */
function model(ops: readonly Op[]): { id: string; text: string; input: number }[] {
  let live: { id: string; text: string; input: number }[] = [];
  for (const op of ops) {
    if (op.kind === 'message') {
      const entry = { id: op.id, text: `v${op.version}`, input: op.id <= 'c' ? op.input : 0 };
      const at = live.findIndex((message) => message.id === op.id);
      if (at === -1) live.push(entry);
      else live[at] = entry;
    } else if (op.kind === 'snapshot') live = op.ids.map((snapshotId) => ({ id: snapshotId, text: 'snap', input: 0 }));
    else {
      const at = live.findIndex((message) => message.id === op.id);
      live = at === -1 ? [] : live.slice(0, at);
    }
  }
  return live;
}

function line(op: Op): string {
  if (op.kind === 'message') return JSON.stringify(record(op));
  if (op.kind === 'snapshot')
    return JSON.stringify({ $set: { messages: op.ids.map((snapshotId) => ({ id: snapshotId, type: 'user', content: [{ text: 'snap' }] })) } });
  return JSON.stringify({ $rewindTo: op.id });
}

describe('Gemini chat reading (fast-check)', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-property-'));
  after(() => rmSync(temp, { recursive: true, force: true }));
  let runs = 0;

  it('last line for an id wins, snapshots replace, rewinds cut: the live history equals the model, whatever damage is mixed in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 8, arbitrary: op.map((value) => ({ value })) }, { weight: 1, arbitrary: damaged.map((text) => ({ text })) }), {
          maxLength: 40,
        }),
        async (items) => {
          const path = join(temp, `chat-${runs++}.jsonl`);
          writeFileSync(path, [JSON.stringify(HEADER), ...items.map((item) => ('value' in item ? line(item.value) : item.text))].join('\n') + '\n');
          const read = await readChat(path, false);
          assert.ok(read.ok);
          const ops = items.flatMap((item) => ('value' in item ? [item.value] : []));
          const expected = model(ops);
          const live = read.value.state.conversation.list();
          assert.deepEqual(
            live.map(({ message }) => message.id),
            expected.map((message) => message.id),
          );
          assert.deepEqual(
            live.map(({ message }) => (typeof message.content === 'string' ? message.content : (message.content as { text: string }[])[0]?.text)),
            expected.map((message) => message.text),
          );
          // No compression in these chats: the fill is the newest live count.
          const newest = expected.findLast((message) => message.input > 0);
          const fill = read.value.state.fill({});
          assert.equal(fill.usedTokens, newest?.input ?? 0);
          assert.equal(fill.source, newest === undefined ? 'estimate' : 'usage');
        },
      ),
      { numRuns: 200 },
    );
  });
});
