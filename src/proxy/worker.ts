// The proxy's rewrite thread (dist/proxy-worker.js): the LiveRewriter and all its session state live
// here, so reading a request (up to 32 MB), a batch of the engine and writing the new body never
// hold the proxy's event loop, which only receives, budgets, forwards and streams (workerRewriter.ts
// is the other side). Messages are handled in the order they come, as the rewriter handled calls
// on the one thread before: a session's requests keep their order.
import { parentPort, workerData } from 'node:worker_threads';
import { LiveRewriter } from './rewrite';
import { asBuffer, splicedOver, type FromWorker, type ToWorker, type WorkerSetup } from './workerMessages';

const port = parentPort;
if (!port) throw new Error('proxy-worker.js runs as a worker thread of the proxy');
const setup = workerData as WorkerSetup;
const say = (message: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
const rewriter = new LiveRewriter(setup.options, setup.dirs, (line) => say({ kind: 'log', line }));

/** The shared buffers the proxy gave, by number, until it lets them go. */
const shared = new Map<number, SharedArrayBuffer>();

port.on('message', (message: ToWorker) => {
  if (message.kind === 'adopt') return void shared.set(message.shared, message.memory);
  if (message.kind === 'forget') return void shared.delete(message.shared);
  if (message.kind === 'usage') return rewriter.recordUsage(message.session, message.sentBytes, message.usage, message.sent);
  if (message.kind === 'warm-up') {
    void rewriter.warmUp().then(
      () => say({ kind: 'warmed', id: message.id, error: null }),
      (error: unknown) => say({ kind: 'warmed', id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
    return;
  }
  const { body: sent } = message;
  const memory = 'shared' in sent ? shared.get(sent.shared) : undefined;
  // A number it was never given cannot happen (the proxy gives before it sends); read as no body, it fails open.
  const raw = 'shared' in sent ? (memory ? Buffer.from(memory, 0, sent.length) : Buffer.alloc(0)) : asBuffer(sent.bytes);
  void rewriter.rewrite(raw, message.format, message.path).then(({ pieces, ...rewrite }) => {
    // The original bytes are the sender's own already; a new body goes back as where its bytes are.
    const body = rewrite.changed ? splicedOver(raw, pieces) : null;
    say({ kind: 'rewritten', id: message.id, rewrite: { ...rewrite, body } }, body ? [body.inserted.buffer as ArrayBuffer] : []);
  });
});
