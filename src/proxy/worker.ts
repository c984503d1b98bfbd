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

port.on('message', (message: ToWorker) => {
  if (message.kind === 'usage') return rewriter.recordUsage(message.session, message.sentBytes, message.usage, message.sent);
  if (message.kind === 'warm-up') {
    void rewriter.warmUp().then(
      () => say({ kind: 'warmed', id: message.id, error: null }),
      (error: unknown) => say({ kind: 'warmed', id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
    return;
  }
  const raw = asBuffer(message.body);
  void rewriter.rewrite(raw).then(({ pieces, ...rewrite }) => {
    // The original bytes are the sender's own already; a new body goes back as where its bytes are.
    const body = rewrite.changed ? splicedOver(raw, pieces) : null;
    say({ kind: 'rewritten', id: message.id, rewrite: { ...rewrite, body } }, body ? [body.inserted.buffer as ArrayBuffer] : []);
  });
});
