// Hostile input at the reading layer (issue 12 §6, issue 11 §6): each defect the probe found, as a
// unit test. The end-to-end run of every command over the whole corpus is test/integration/hostile.test.ts.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeAtomically } from '../../../src/sessions/atomicWrite';
import { readLiveContext } from '../../../src/sessions/claude-code/liveContext';
import { readForward, RecordParser } from '../../../src/sessions/claude-code/jsonl';
import { MAX_NESTING } from '../../../src/sessions/common/jsonRecords';
import { usageOf } from '../../../src/sessions/claude-code/records';
import { TailScan } from '../../../src/sessions/claude-code/scan';
import { withFile } from '../../../src/sessions/result';
import { ok } from '../../../src/sessions/result';
import { tempDir } from '../../support/tempDir';

const dir = (): string => tempDir('cl-hostile-unit-');
const user = (uuid: string, parent: string | null, text: string): string =>
  JSON.stringify({ type: 'user', uuid, parentUuid: parent, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: text } });
const assistant = (uuid: string, parent: string, usage: Record<string, unknown>): string =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    parentUuid: parent,
    timestamp: '2026-01-01T00:00:01Z',
    message: { id: `m-${uuid}`, role: 'assistant', model: 'claude-sonnet-5-5', content: [{ type: 'text', text: 'ok' }], usage },
  });

describe('reading hostile transcripts', () => {
  it('strips a UTF-8 byte-order mark before line 1', async () => {
    const path = join(dir(), 's.jsonl');
    writeFileSync(path, `\uFEFF${user('u1', null, 'hi')}\n`);
    const read = await readForward(path);
    assert.equal(read.records.length, 1);
    assert.deepEqual(read.diagnostics, []);
  });

  it('names every line with invalid UTF-8, also before the last compaction, and keeps its content', async () => {
    const path = join(dir(), 's.jsonl');
    const lines = [
      user('u1', null, 'caf\u00e9 one'),
      assistant('a1', 'u1', { input_tokens: 10, output_tokens: 1 }),
      JSON.stringify({ type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null }),
      user('u2', 'b1', 'caf\u00e9 two'),
      assistant('a2', 'u2', { input_tokens: 20, output_tokens: 1 }),
    ];
    // Latin-1 é (0xE9) on lines 1 and 4: invalid UTF-8, valid JSON once replaced.
    const bytes = Buffer.from(`${lines.join('\n')}\n`.replace(/\u00e9/g, '\u0001'));
    for (let at = bytes.indexOf(1); at !== -1; at = bytes.indexOf(1, at + 1)) bytes[at] = 0xe9;
    writeFileSync(path, bytes);
    const live = await readLiveContext(path);
    assert.ok(live.ok);
    const found = live.value.diagnostics.filter((d) => d.code === 'invalid-utf8').map((d) => d.line);
    assert.deepEqual(found.sort(), [1, 4]);
    assert.equal(live.value.messages.length, 2);
  });

  it('cuts nesting deeper than the limit instead of overflowing the stack later', async () => {
    const path = join(dir(), 's.jsonl');
    writeFileSync(path, `${user('u1', null, 'x').replace('"x"', `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`)}\n`);
    const read = await readForward(path);
    assert.equal(read.records.length, 1);
    assert.equal(read.diagnostics[0]?.code, 'too-deep');
    assert.doesNotThrow(() => JSON.stringify(read.records[0]?.record));
    let depth = 0;
    for (let value: unknown = (read.records[0]?.record.message as { content: unknown }).content; Array.isArray(value); value = value[0]) depth++;
    assert.ok(depth < MAX_NESTING);
  });

  it('ignores negative, fractional, infinite and absurd usage with a diagnostic', () => {
    const parser = new RecordParser();
    for (const usage of [
      { input_tokens: -500_000 },
      { input_tokens: 1e300 },
      { input_tokens: 10, cache_read_input_tokens: 1.5 },
      { input_tokens: 10, output_tokens: 'NaN' },
    ]) {
      const located = parser.parse(Buffer.from(assistant('a', 'u', usage)), 1, 0, 1);
      assert.ok(located);
      assert.equal(usageOf(located.record), null, JSON.stringify(usage));
    }
    assert.equal(parser.diagnostics().filter((d) => d.code === 'invalid-usage').length, 4);
    const fine = parser.parse(Buffer.from(assistant('a', 'u', { input_tokens: 10, output_tokens: 2 })), 2, 0, 1);
    assert.deepEqual(usageOf(fine!.record), { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 2 });
  });

  it('refuses a FIFO without waiting for a writer, and names a symlink loop', async () => {
    const folder = dir();
    execFileSync('mkfifo', [join(folder, 'fifo.jsonl')]);
    const fifo = await withFile(join(folder, 'fifo.jsonl'), async () => ok(1));
    assert.equal(fifo.ok ? 'read' : fifo.error.message, `Not a regular file (a named pipe): ${join(folder, 'fifo.jsonl')}`);
    await assert.rejects(readForward(join(folder, 'fifo.jsonl')), /named pipe/);
    symlinkSync(join(folder, 'b.jsonl'), join(folder, 'a.jsonl'));
    symlinkSync(join(folder, 'a.jsonl'), join(folder, 'b.jsonl'));
    const loop = await withFile(join(folder, 'a.jsonl'), async () => ok(1));
    assert.equal(loop.ok ? 'read' : loop.error.message, `Symlink loop: ${join(folder, 'a.jsonl')}`);
  });

  it('stops reading a live context back at the cap and says so', async () => {
    const path = join(dir(), 's.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 200; i++)
      lines.push(
        i % 2 === 0 ? user(`r${i}`, i === 0 ? null : `r${i - 1}`, 'step') : assistant(`r${i}`, `r${i - 1}`, { input_tokens: 100 + i, output_tokens: 1 }),
      );
    writeFileSync(path, `${lines.join('\n')}\n`);
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const scan = new TailScan(handle, path, size, 200, undefined, 4096);
      assert.equal(await scan.readUntil(() => false), false);
      assert.ok(scan.truncated && scan.atStart);
      assert.ok(scan.records.length < 40);
      assert.equal(scan.diagnostics()[0]?.code, 'live-context-truncated');
    } finally {
      await handle.close();
    }
  });
});

describe('writeAtomically leaves nothing the agent would list', () => {
  it('writes through a hidden temp name that is not .jsonl and clears stale temps of dead runs', async () => {
    const folder = dir();
    const stale = join(folder, '.x.jsonl.999999999-0000.context-lens-tmp');
    writeFileSync(stale, 'half a session');
    const old = join(folder, `.y.jsonl.${process.pid}-1111.context-lens-tmp`);
    writeFileSync(old, 'ours but old');
    utimesSync(old, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    const written = await writeAtomically(join(folder, 'fork.jsonl'), '{}\n');
    assert.ok(written.ok);
    assert.deepEqual(readdirSync(folder), ['fork.jsonl']);
  });

  it('a writer killed mid-write leaves no .jsonl behind, and the next write cleans up after it', async () => {
    const folder = dir();
    const script = `require(${JSON.stringify(join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs'))});
const { writeAtomically } = require(${JSON.stringify(join(__dirname, '..', '..', '..', 'src', 'sessions', 'atomicWrite.ts'))});
process.stdout.write('ready\\n');
writeAtomically(${JSON.stringify(join(folder, 'big.jsonl'))}, 'x'.repeat(400 * 1024 * 1024));`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    // Kill as soon as the temp file exists, before the rename.
    for (let tries = 0; tries < 500 && !readdirSync(folder).some((name) => name.endsWith('.context-lens-tmp')); tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    assert.ok(readdirSync(folder).every((name) => !name.endsWith('.jsonl') || name === 'big.jsonl'));
    assert.ok(!readdirSync(folder).includes('big.jsonl'), 'killed before the rename');
    assert.ok(
      readdirSync(folder).some((name) => name.endsWith('.context-lens-tmp')),
      'the temp file was there to clean',
    );
    assert.ok((await writeAtomically(join(folder, 'next.jsonl'), '{}\n')).ok);
    assert.deepEqual(readdirSync(folder), ['next.jsonl']);
  });
});
