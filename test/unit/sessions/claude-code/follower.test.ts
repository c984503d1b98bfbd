import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, it, mock } from 'node:test';
import { SessionFollower, type FollowerOptions } from '../../../../src/sessions/claude-code/follower';
import type { ContextChange } from '../../../../src/sessions/types';
import type { CompactionEvent, Diagnostic } from '../../../../src/sessions/types';
import { TranscriptBuilder, basicSession, tempDir } from './builders';

const DEBOUNCE = 50;
const followers: SessionFollower[] = [];

afterEach(() => {
  for (const follower of followers.splice(0)) follower.dispose();
  mock.restoreAll();
});

async function follow(
  path: string,
  options: FollowerOptions = {},
): Promise<{ follower: SessionFollower; changes: ContextChange[]; diagnostics: Diagnostic[]; compactions: CompactionEvent[] }> {
  const follower = new SessionFollower(path, { debounceMs: DEBOUNCE, pollMs: 200, ...options });
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One response line, as Claude Code would append it. */
function responseLine(builder: TranscriptBuilder, id: string, input: number): string {
  builder.text(id, 'more', { input, output: 3 });
  return `${builder.lines.at(-1)}\n`;
}

describe('SessionFollower', () => {
  it('emits the initial fill, then a change right after an append, without waiting for the debounce', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    // No poll during the test: only fs.watch can deliver the change this fast.
    const debounceMs = 100;
    const { follower, changes } = await follow(path, { debounceMs, pollMs: 60_000 });
    assert.equal(changes[0]?.reason, 'initial');
    assert.equal(changes[0]?.fill.usedTokens, 1145);
    const latencies: number[] = [];
    for (let round = 0; round < 5; round++) {
      // Quiet for longer than the window (and a trailing run's window), so this append leads.
      await sleep(2.5 * debounceMs);
      const changed = next<ContextChange>(follower, 'contextChanged');
      const started = performance.now();
      appendFileSync(path, responseLine(builder, `msg_${10 + round}`, 2000 + round));
      const change = await changed;
      latencies.push(performance.now() - started);
      assert.equal(change.reason, 'append');
      assert.equal(change.fill.usedTokens, 2000 + round);
      assert.equal(change.newUuids.length, 1);
    }
    latencies.sort((a, b) => a - b);
    // Generous (the bar is 20 ms) but below the debounce, which a trailing-only debounce would add.
    assert.ok((latencies[2] as number) < debounceMs, `median end-to-end latency: ${latencies[2]?.toFixed(1)} ms`);
  });

  it('coalesces a burst: 100 quick appends are a few reads, not 100', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes } = await follow(path);
    for (let append = 0; append < 100; append++) {
      appendFileSync(path, responseLine(builder, `msg_b${append}`, 3000 + append));
      await sleep(1);
    }
    await follower.refresh();
    const reads = changes.filter((change) => change.reason === 'append');
    assert.ok(reads.length <= 10, `${reads.length} reads for 100 appends`);
    assert.equal(changes.at(-1)?.fill.usedTokens, 3099);
    assert.equal(
      reads.reduce((sum, change) => sum + change.newUuids.length, 0),
      100,
    );
  });

  it('gives a bad appended line its line number in the file', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const complete = builder.lines.length;
    // Following starts with a half-written line pending: it is line complete + 1.
    const pending = responseLine(builder, 'msg_l', 3000);
    appendFileSync(path, pending.slice(0, 30));
    const { follower, diagnostics } = await follow(path);
    appendFileSync(path, `${pending.slice(30)}{"type":"user","mess\n`);
    await follower.refresh();
    assert.deepEqual(
      diagnostics.map(({ code, line }) => [code, line]),
      [['invalid-json', complete + 2]],
    );
    appendFileSync(path, responseLine(builder, 'msg_m', 3100) + 'not json\n');
    await follower.refresh();
    assert.deepEqual(
      diagnostics.map(({ code, line }) => [code, line]),
      [
        ['invalid-json', complete + 2],
        ['invalid-json', complete + 4],
      ],
    );
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
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.code),
      ['file-deleted'],
    );
    builder.write(join(path, '..'));
    await follower.refresh();
    assert.equal(changes.at(-1)?.reason, 'reset');
    assert.equal(diagnostics.at(-1)?.code, 'file-recreated');
  });

  it('a file deleted between the stat and the read is reported as deleted, then picked up again', async () => {
    const builder = basicSession();
    const path = builder.write(tempDir());
    const { follower, changes, diagnostics } = await follow(path, { pollMs: 60_000 });
    // The race, made certain: the follower's next stat succeeds, then the file is gone.
    const realStat = fsPromises.stat;
    let raced = false;
    mock.method(fsPromises, 'stat', async (...args: Parameters<typeof realStat>) => {
      const stats = await realStat(...args);
      if (!raced) rmSync(path);
      raced = true;
      return stats;
    });
    appendFileSync(path, responseLine(builder, 'msg_r', 2500));
    await follower.refresh();
    await follower.refresh();
    assert.deepEqual(
      diagnostics.map(({ code, path: where }) => [code, where]),
      [['file-deleted', path]],
    );
    builder.write(join(path, '..'));
    await follower.refresh();
    assert.equal(changes.at(-1)?.reason, 'reset');
    assert.equal(changes.at(-1)?.fill.usedTokens, 2500);
    assert.equal(diagnostics.at(-1)?.code, 'file-recreated');
  });

  it('permission denied while followed: reported once with the path, and following resumes once readable', () => {
    const builder = basicSession();
    const dir = tempDir();
    const path = builder.write(dir);
    const line = responseLine(builder, 'msg_perm', 4321);
    // Root reads everything: as fill.test.ts does, follow as the unprivileged `nobody`, made owner
    // so that it can take its own read permission away and give it back.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) for (const owned of [dir, path]) chownSync(owned, 65534, 65534);
    const root = join(__dirname, '..', '..', '..', '..');
    const module = join(root, 'src', 'sessions', 'claude-code', 'follower.ts');
    const script = `
      const { appendFileSync, chmodSync } = require('node:fs');
      const { SessionFollower } = require(${JSON.stringify(module)});
      const path = ${JSON.stringify(path)};
      const follower = new SessionFollower(path, { pollMs: 60000 });
      const events = [];
      follower.on('diagnostic', ({ severity, code, message, path }) => events.push({ severity, code, message, path }));
      follower.on('contextChanged', ({ reason, fill }) => events.push({ reason, usedTokens: fill.usedTokens }));
      (async () => {
        await follower.start();
        appendFileSync(path, ${JSON.stringify(line)});
        chmodSync(path, 0o000);
        await follower.refresh();
        await follower.refresh();
        chmodSync(path, 0o644);
        await follower.refresh();
        follower.dispose();
        process.stdout.write(JSON.stringify(events));
      })();`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      cwd: root,
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    assert.equal(child.status, 0, child.stderr);
    const events = JSON.parse(child.stdout) as Record<string, unknown>[];
    assert.deepEqual(events, [
      { reason: 'initial', usedTokens: 1145 },
      { severity: 'error', code: 'permission-denied', message: `Permission denied: ${path}; following resumes once it can be read`, path },
      { severity: 'info', code: 'file-readable', message: 'Transcript can be read again; following resumes', path },
      { reason: 'append', usedTokens: 4321 },
    ]);
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
