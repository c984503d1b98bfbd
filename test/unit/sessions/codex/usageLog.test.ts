// Per-call usage of a rollout the real Codex CLI 0.169.0 wrote (test/fixtures/codex/tally): one point
// per response with input, keyed by the refs the live context gives that response's output items,
// so the timeline draws one bar per model call; appended lines are read on, a rewritten file anew.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readCodexLiveContext } from '../../../../src/sessions/codex';
import { listRolloutFiles } from '../../../../src/sessions/codex/paths';
import { CodexUsageLog } from '../../../../src/sessions/codex/usageLog';

const HOME = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'tally');

/** The responses Codex counted: token_count events with input, as the file says. */
function countedResponses(path: string): { input_tokens: number; output_tokens: number }[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"token_count"'))
    .map((line) => JSON.parse(line).payload.info?.last_token_usage)
    .filter((usage) => usage && usage.input_tokens > 0);
}

describe('CodexUsageLog on the recorded tally rollout', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-codex-usage-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('gives each response of the live context its exact usage, one id per response', async () => {
    const [path] = await listRolloutFiles(HOME);
    assert.ok(path);
    const live = await readCodexLiveContext(path);
    assert.ok(live.ok);
    const log = new CodexUsageLog(path);
    await log.update(live.value.startOffset);
    const points = new Map(
      live.value.entries.flatMap((entry) => entry.uuids.flatMap((ref) => (log.get(ref) ? [[log.get(ref)!.messageId, log.get(ref)!]] : []))),
    );
    assert.ok(points.size > 0, 'bars for the live context');
    const counted = countedResponses(path).map((usage) => usage.input_tokens + usage.output_tokens);
    // Every bar is a response Codex counted, and the newest is the gauge's exact fill.
    for (const point of points.values()) assert.ok(counted.includes(point.usedTokens), `${point.usedTokens} is a counted response`);
    const newest = [...points.values()].sort((a, b) => Date.parse(a.at ?? '') - Date.parse(b.at ?? '')).at(-1);
    assert.equal(newest?.usedTokens, counted.at(-1));
  });

  it('reads appended lines on, and a file rewritten shorter anew', async () => {
    const [source] = await listRolloutFiles(HOME);
    assert.ok(source);
    const path = join(temp, 'rollout-2026-11-23T22-17-45-01a20a7c-91ba-7042-b356-3b768f64638e.jsonl');
    const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
    const half = lines.findIndex((line, index) => index > lines.length / 2 && line.includes('"type":"token_count"')) + 1;
    writeFileSync(path, `${lines.slice(0, half).join('\n')}\n`);
    const log = new CodexUsageLog(path);
    await log.update();
    const refsAt = (text: string): string[] => {
      let offset = 0;
      return text
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          const at = offset;
          offset += Buffer.byteLength(line) + 1;
          return log.get(`o${at}`) ? [`o${at}`] : [];
        });
    };
    const before = refsAt(readFileSync(path, 'utf8')).length;
    assert.ok(before > 0);
    appendFileSync(path, `${lines.slice(half).join('\n')}\n`);
    await log.update();
    assert.ok(refsAt(readFileSync(path, 'utf8')).length > before, 'the appended responses');
    writeFileSync(path, `${lines.slice(0, 3).join('\n')}\n`);
    await log.update();
    assert.equal(refsAt(readFileSync(path, 'utf8')).length, 0, 'nothing left of the old file');
  });
});
