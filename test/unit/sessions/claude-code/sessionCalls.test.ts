import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileCalls } from '../../../../src/sessions/claude-code/sessionCalls';

const line = (id: string, output: number, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ type: 'assistant', uuid: `u-${id}-${output}`, requestId: `req-${id}`, timestamp: '2026-01-01T00:00:00Z', message: { id, model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [], usage: { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1_000, output_tokens: output, ...extra } } })}\n`;

describe('readFileCalls', () => {
  it('refuses a named pipe named like a transcript at once instead of waiting for a writer', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cl-calls-fifo-')), 'session.jsonl');
    execFileSync('mkfifo', [path]);
    await assert.rejects(readFileCalls(path, mkdtempSync(join(tmpdir(), 'cl-calls-cache-'))), /Not a regular file \(a named pipe\)/);
  });

  it('counts a response once, with its newest line, also when its lines arrive across two reads; the second read resumes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-calls-'));
    const cache = join(dir, 'cache');
    const path = join(dir, 's.jsonl');
    writeFileSync(path, line('msg_1', 5) + line('msg_1', 50) + line('msg_2', 7));
    assert.deepEqual((await readFileCalls(path, cache)).map((call) => call.usage.outputTokens), [50, 7]);
    appendFileSync(path, line('msg_2', 70) + line('msg_3', 3, { cache_creation: { ephemeral_1h_input_tokens: 40, ephemeral_5m_input_tokens: 60 } }));
    const calls = await readFileCalls(path, cache);
    assert.deepEqual(calls.map((call) => call.usage.outputTokens), [50, 70, 3]);
    assert.equal(calls[2]?.usage.cacheWrite1hTokens, 40);
    assert.equal(calls[0]?.model, 'claude-sonnet-4-5-20250929');
    // Many responses later, the older ones come back summed per model and day, counted as calls.
    appendFileSync(path, Array.from({ length: 100 }, (_, k) => line(`msg_n${k}`, 1)).join(''));
    const many = await readFileCalls(path, cache);
    assert.equal(many.reduce((sum, call) => sum + (call.count ?? 1), 0), 103);
    assert.equal(many.reduce((sum, call) => sum + call.usage.outputTokens, 0), 50 + 70 + 3 + 100);
    assert.ok(many.length < 103);
    // Rewritten in place (not only appended): the index no longer fits, everything is read again.
    writeFileSync(path, line('msg_9', 1));
    assert.deepEqual((await readFileCalls(path, cache)).map((call) => call.usage.outputTokens), [1]);
  });
});
