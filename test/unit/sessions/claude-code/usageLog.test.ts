import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UsageLog } from '../../../../src/sessions/claude-code/usageLog';
import { tempDir } from './builders';

function response(uuid: string, tokens: number): string {
  return `${JSON.stringify({ type: 'assistant', uuid, timestamp: '2025-05-01T10:30:00Z', message: { id: `msg-${uuid}`, model: 'claude-x', role: 'assistant', content: [], usage: { input_tokens: tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 } } })}\n`;
}

describe('UsageLog', () => {
  it('reads from where the live context starts, then only what is appended, and further back when the live context moves back', async () => {
    const path = join(tempDir(), 's.jsonl');
    const before = response('before', 100);
    writeFileSync(path, before + response('live', 200));
    const log = new UsageLog(path);
    await log.update(Buffer.byteLength(before));
    assert.equal(log.get('before'), undefined);
    assert.equal(log.get('live')?.usedTokens, 200);
    appendFileSync(path, response('next', 300));
    await log.update(Buffer.byteLength(before));
    assert.deepEqual([log.get('live')?.usedTokens, log.get('next')?.usedTokens], [200, 300]);
    await log.update(0);
    assert.deepEqual([log.get('before')?.usedTokens, log.get('live')?.usedTokens, log.get('next')?.usedTokens], [100, 200, 300]);
  });

  it('starts over when the file was replaced by a shorter one', async () => {
    const path = join(tempDir(), 's.jsonl');
    writeFileSync(path, response('a', 100) + response('b', 200));
    const log = new UsageLog(path);
    await log.update();
    writeFileSync(path, response('c', 300));
    await log.update();
    assert.deepEqual([log.get('a'), log.get('c')?.usedTokens], [undefined, 300]);
  });
});
