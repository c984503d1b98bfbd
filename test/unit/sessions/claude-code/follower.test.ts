import assert from 'node:assert/strict';
import { appendFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { SessionFollower, type ContextChange } from '../../../../src/sessions/claude-code/follower';
import type { CompactionEvent, Diagnostic } from '../../../../src/sessions/types';
import { TranscriptBuilder, basicSession, tempDir } from './builders';

const DEBOUNCE = 50;
const followers: SessionFollower[] = [];

afterEach(() => {
  for (const follower of followers.splice(0)) follower.dispose();
});

async function follow(path: string): Promise<{ follower: SessionFollower; changes: ContextChange[]; diagnostics: Diagnostic[]; compactions: CompactionEvent[] }> {
  const follower = new SessionFollower(path, { debounceMs: DEBOUNCE, pollMs: 200 });
  followers.push(follower);
  const changes: ContextChange[] = [];
  const diagnostics: Diagnostic[] = [];
  const compactions: CompactionEvent[] = [];
  follower.on('contextChanged', (change) => changes.push(change));
  follower.on('diagnostic', (diagnostic) => diagnostics.push(diagnostic));
  follower.on('compacted', (event) => compactions.push(event));
  await follower.start();
  return { follower, changes, diagnostics, compactions };
}

function next<T>(emitter: SessionFollower, event: 'contextChanged' | 'diagnostic', timeoutMs = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    emitter.once(event, (value: unknown) => {
      clearTimeout(timer);
      resolve(value as T);
    });
  });
}

/** One response line, as Claude Code would append it. */
function responseLine(builder: TranscriptBuilder, id: string, input: number): string {
  builder.text(id, 'more', { input, output: 3 });
  return `${builder.lines.at(-1)}\n`;
}

describe('SessionFollower', () => {
  it('emits the initial fill, then a change within 20 ms of the debounce after an append', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes } = await follow(path);
    assert.equal(changes[0]?.reason, 'initial');
    assert.equal(changes[0]?.fill.usedTokens, 1145);
    const latencies: number[] = [];
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const changed = next<ContextChange>(follower, 'contextChanged');
      appendFileSync(path, responseLine(builder, `msg_${10 + round}`, 2000 + round));
      const change = await changed;
      latencies.push(performance.now() - started - DEBOUNCE);
      assert.equal(change.reason, 'append');
      assert.equal(change.fill.usedTokens, 2000 + round);
      assert.equal(change.newUuids.length, 1);
    }
    latencies.sort((a, b) => a - b);
    assert.ok((latencies[1] ?? Infinity) <= 20, `median latency after the debounce: ${latencies[1]?.toFixed(1)} ms`);
  });

  it('keeps a partial line pending until its newline arrives', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes, diagnostics } = await follow(path);
    const line = responseLine(builder, 'msg_p', 5000);
    appendFileSync(path, line.slice(0, 40));
    await follower.refresh();
    assert.equal(changes.length, 1, 'no change for half a line');
    appendFileSync(path, line.slice(40));
    await follower.refresh();
    assert.equal(changes.length, 2);
    assert.equal(changes[1]?.fill.usedTokens, 5000);
    assert.deepEqual(diagnostics, []);
  });

  it('starts over when the file is truncated or replaced', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes, diagnostics } = await follow(path);
    const shorter = new TranscriptBuilder();
    shorter.text('m', 'x', { input: 7, output: 1 });
    writeFileSync(path, shorter.toString());
    await follower.refresh();
    assert.equal(changes.at(-1)?.reason, 'reset');
    assert.equal(changes.at(-1)?.fill.usedTokens, 7);
    const replacement = join(tempDir(), 'new.jsonl');
    basicSession().write(tempDir());
    writeFileSync(replacement, basicSession().toString());
    renameSync(replacement, path);
    await follower.refresh();
    assert.equal(changes.at(-1)?.fill.usedTokens, 1145);
    assert.ok(diagnostics.every((diagnostic) => diagnostic.code === 'file-replaced'));
  });

  it('reports deletion once, then picks the file up again when it comes back', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes, diagnostics } = await follow(path);
    rmSync(path);
    await follower.refresh();
    await follower.refresh();
    assert.deepEqual(diagnostics.map((diagnostic) => diagnostic.code), ['file-deleted']);
    builder.write(join(path, '..'));
    await follower.refresh();
    assert.equal(changes.at(-1)?.reason, 'reset');
    assert.equal(diagnostics.at(-1)?.code, 'file-recreated');
  });

  it('announces a compaction the agent performed', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes, compactions } = await follow(path);
    const before = builder.lines.length;
    builder.compact('the summary', { postTokens: 2200 });
    appendFileSync(path, `${builder.lines.slice(before).join('\n')}\n`);
    await follower.refresh();
    assert.equal(compactions.length, 1);
    assert.equal(compactions[0]?.postTokens, 2200);
    assert.match(compactions[0]?.summary ?? '', /the summary/);
    assert.equal(changes.at(-1)?.fill.usedTokens, 2200);
    assert.equal(changes.at(-1)?.fill.compactedSinceUsage, true);
  });

  it('reports a missing file and leaks no watchers after dispose', async () => {
    const { follower, diagnostics } = await follow(join(tempDir(), 'absent.jsonl'));
    assert.equal(diagnostics[0]?.code, 'file-deleted');
    follower.dispose();
    assert.equal(follower.listenerCount('contextChanged'), 0);
  });
});
