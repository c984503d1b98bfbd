// The live rewrite on its worker thread (the real worker.ts, loaded through tsx): the same rewrites
// as the rewriter on this thread, request after request; the body read where it lies; and every way
// a worker can fail (an error, its memory limit, silence) costs a fail-open with the reason.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_LIVE_OPTIONS, LiveRewriter, type LiveDirs, type LiveOptions } from '../../../src/proxy/rewrite';
import { workerEntry, WorkerRewriter, type WorkerEntry } from '../../../src/proxy/workerRewriter';
import { bytesOf, conversation, joinedPieces } from '../../support/proxyConversation';
import { tempDir } from '../../support/tempDir';

const OPTIONS: LiveOptions = { ...DEFAULT_LIVE_OPTIONS, windowTokens: 20_000, triggerPercent: 50, budgetMs: 5_000 };

function dirs(): LiveDirs {
  const root = tempDir('cl-proxy-worker-');
  return { recall: join(root, 'recall'), requests: join(root, 'requests'), panel: join(root, 'panel') };
}

/** The body as the server holds it: in shared memory. */
function shared(bytes: Buffer): Buffer {
  const body = Buffer.from(new SharedArrayBuffer(bytes.length));
  bytes.copy(body);
  return body;
}

describe('WorkerRewriter', () => {
  const closing: WorkerRewriter[] = [];
  after(async () => {
    for (const worker of closing) await worker.close();
  });
  const started = (entry: WorkerEntry, timeoutMs?: number): WorkerRewriter => {
    const worker = new WorkerRewriter({ options: OPTIONS, dirs: dirs() }, entry, () => undefined, timeoutMs);
    closing.push(worker);
    return worker;
  };
  const fake = (code: string): WorkerEntry => ({ code, eval: true });

  it('rewrites as the rewriter on this thread does, request after request, and leaves the shared body readable', async () => {
    const entry = workerEntry(join(__dirname, '..', '..', '..', 'src', 'proxy'));
    assert.equal(entry?.eval, true, 'from source: worker.ts through tsx');
    const worker = started(entry!);
    const inline = new LiveRewriter(OPTIONS, dirs());
    for (let turns = 10; turns <= 16; turns++) {
      const bytes = bytesOf(conversation({ turns }));
      const raw = shared(bytes);
      const [there, here] = [await worker.rewrite(raw), await inline.rewrite(Buffer.from(bytes))];
      assert.equal(there.action, here.action, `turn ${turns}: ${there.reason}`);
      assert.ok(joinedPieces(there.pieces).equals(joinedPieces(here.pieces)), `turn ${turns}: the same bytes go upstream`);
      assert.deepEqual(there.newEdits, here.newEdits);
      assert.ok(raw.equals(bytes), 'the request as read is still here to be sent');
      assert.equal(there.bytes, joinedPieces(there.pieces).length);
      // A changed body comes back as views of the shared request between the stubs: no copy of it.
      if (there.changed) assert.ok(there.pieces.filter((piece) => piece.buffer === raw.buffer).reduce((sum, piece) => sum + piece.length, 0) > there.bytes / 2);
      if (there.sent && here.sent)
        worker.recordUsage(
          there.session,
          there.bytes,
          { inputTokens: 1, cacheReadTokens: there.sentTokens, cacheCreationTokens: 0, outputTokens: 10 },
          there.sent,
        );
      if (here.sent)
        inline.recordUsage(here.session, here.bytes, { inputTokens: 1, cacheReadTokens: here.sentTokens, cacheCreationTokens: 0, outputTokens: 10 }, here.sent);
    }
  });

  it('sends a body in memory of its own (an inflated one) as a copy, and leaves it whole', async () => {
    const worker = started(workerEntry(join(__dirname, '..', '..', '..', 'src', 'proxy'))!);
    const bytes = bytesOf(conversation({ turns: 3 }));
    const inflated = Buffer.from(bytes);
    const result = await worker.rewrite(inflated);
    assert.equal(result.action, 'unchanged');
    assert.ok(inflated.equals(bytes), 'still readable here');
    assert.ok(joinedPieces(result.pieces).equals(bytes));
  });

  it('a worker that fails: the request goes as it came, with the reason', async () => {
    const raw = shared(bytesOf(conversation({ turns: 3 })));
    const result = await started(fake("throw new Error('boom')")).rewrite(raw);
    assert.equal(result.action, 'failed-open');
    assert.match(result.reason ?? '', /rewrite worker: boom/);
    assert.ok(joinedPieces(result.pieces).equals(raw));
  });

  it('a worker past its memory limit fails open, named, and the process lives on', async () => {
    const hog = "const kept = []; require('node:worker_threads').parentPort.on('message', () => { for (;;) kept.push(new Array(1e6).fill(1.5)); });";
    const result = await started(fake(hog)).rewrite(shared(Buffer.from('{}')));
    assert.equal(result.action, 'failed-open');
    assert.match(result.reason ?? '', /memory/i);
  });

  it('gives the worker each shared buffer once, by number, and tells it when the pool lets one go', async () => {
    // Says back what it was sent, in a log line, and answers every rewrite "unchanged".
    const echo = `const { parentPort } = require('node:worker_threads');
      parentPort.on('message', (message) => {
        const seen = message.kind === 'adopt' ? { kind: 'adopt', shared: message.shared, bytes: message.memory.byteLength } : message.kind === 'rewrite' ? { kind: 'rewrite', body: message.body.bytes ? 'copy' : message.body } : message;
        parentPort.postMessage({ kind: 'log', line: JSON.stringify(seen) });
        if (message.kind === 'rewrite') parentPort.postMessage({ kind: 'rewritten', id: message.id, rewrite: { action: 'unchanged', reason: null, bytes: 0, changed: false, session: '', agentSession: null, model: null, stream: false, agentTokens: 0, sentTokens: 0, stickyEdits: 0, newEdits: [], restored: [], sent: null, addedMs: 0, body: null } });
      });`;
    const lines: unknown[] = [];
    const worker = new WorkerRewriter({ options: OPTIONS, dirs: dirs() }, fake(echo), (line) => lines.push(JSON.parse(line)));
    closing.push(worker);
    const memory = new SharedArrayBuffer(1024);
    for (const length of [10, 20]) assert.equal((await worker.rewrite(Buffer.from(memory, 0, length))).pieces[0]!.length, length);
    await worker.rewrite(Buffer.from('{}'));
    worker.forget(memory);
    worker.forget(memory);
    await worker.rewrite(Buffer.from('{}'));
    assert.deepEqual(lines, [
      { kind: 'adopt', shared: 0, bytes: 1024 },
      { kind: 'rewrite', body: { shared: 0, length: 10 } },
      { kind: 'rewrite', body: { shared: 0, length: 20 } },
      { kind: 'rewrite', body: 'copy' },
      { kind: 'forget', shared: 0 },
      { kind: 'rewrite', body: 'copy' },
    ]);
  });

  it('a worker that does not answer in time fails open and is replaced', async () => {
    const silent = "require('node:worker_threads').parentPort.on('message', () => undefined);";
    const worker = started(fake(silent), 300);
    const [first, second] = await Promise.all([worker.rewrite(shared(Buffer.from('{"a":1}'))), worker.rewrite(shared(Buffer.from('{"a":2}')))]);
    for (const result of [first, second]) {
      assert.equal(result.action, 'failed-open');
      assert.match(result.reason ?? '', /no answer in 300 ms/);
    }
    assert.equal((await worker.rewrite(shared(Buffer.from('{}')))).action, 'failed-open', 'a fresh worker, silent again');
  });

  it('finds the bundled worker beside the bundle, the source one through tsx, or none', () => {
    const folder = tempDir('cl-proxy-entry-');
    assert.equal(workerEntry(folder), null);
    mkdirSync(join(folder, 'src'));
    writeFileSync(join(folder, 'src', 'worker.ts'), '');
    assert.match(workerEntry(join(folder, 'src'))?.code ?? '', /tsx\/cjs/);
    writeFileSync(join(folder, 'proxy-worker.js'), '');
    assert.deepEqual(workerEntry(folder), { code: join(folder, 'proxy-worker.js'), eval: false });
  });
});
