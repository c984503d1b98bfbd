// Bad rollouts never crash or hang the Codex readers: truncated lines, garbage, unknown record
// types and records with the wrong shapes become diagnostics or are skipped; the fill stays a count.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { readCodexFill, readCodexLiveContext } from '../../../../src/sessions/codex';
import { listRolloutFiles } from '../../../../src/sessions/codex/paths';

const HOME = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'tally');

/** A line that is wrong in one of the ways a rollout can be: torn, not JSON, unknown, mis-shaped. */
const badLine = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constant(
    '{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"cut',
  ),
  fc.record({ type: fc.string({ maxLength: 12 }), payload: fc.anything({ maxDepth: 3 }) }).map((value) => JSON.stringify(value)),
  fc
    .record({ type: fc.constantFrom('response_item', 'event_msg', 'compacted', 'turn_context', 'session_meta'), payload: fc.anything({ maxDepth: 3 }) })
    .map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":-5,"output_tokens":"x"}}}}',
    '{"type":"event_msg","payload":{"type":"token_count","info":null}}',
    '{"type":"compacted","payload":{"message":7,"replacement_history":[null,1,{"type":"function_call_output","call_id":"nope","output":"x"}]}}',
    '{"type":"response_item","payload":{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{not json"}}',
    '{"type":"response_item","payload":{"type":"function_call_output","call_id":"missing","output":{"content":[{"type":"input_image"}]}}}',
    '[1,2,3]',
  ),
);

describe('Codex rollout reading on bad input (fast-check)', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-codex-prop-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('reads the fill and the live context of any mix of good and bad lines', async () => {
    const [fixture] = await listRolloutFiles(HOME);
    assert.ok(fixture);
    const good = readFileSync(fixture, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .slice(0, 40);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...good), badLine), { maxLength: 30 }), fc.boolean(), async (lines, cutLast) => {
        const path = join(temp, `rollout-2026-01-01T00-00-00-0000000${run++}-0000-7000-8000-000000000000.jsonl`);
        const text = lines.join('\n');
        writeFileSync(path, cutLast ? text : `${text}\n`);
        const fill = await readCodexFill(path, { autoCompactTokenLimit: null });
        assert.ok(fill.ok, fill.ok ? '' : fill.error.message);
        assert.ok(Number.isInteger(fill.value.fill.usedTokens) && fill.value.fill.usedTokens >= 0);
        const live = await readCodexLiveContext(path, { autoCompactTokenLimit: null });
        assert.ok(live.ok, live.ok ? '' : live.error.message);
        const calls = new Set(live.value.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.id)));
        for (const message of live.value.messages) {
          for (const block of message.content) if (block.type === 'tool_result') assert.ok(calls.has(block.tool_use_id), 'no output without its call');
        }
        if (lines.some((line) => line.trim() !== '' && !line.trim().startsWith('{') && !line.includes('\u0000')))
          assert.ok(live.value.diagnostics.length > 0, 'bad lines are reported');
      }),
      { numRuns: 60 },
    );
  });
});
