// The reliability suite's witness, in a process of its own so the load the test makes cannot stall
// it: it runs the stand-in upstream (upstream.ts) and, on request, a normal streaming call through the
// proxy whose every event is stamped by the upstream when written. The delay of each event (read −
// written) shows how long the proxy held the stream back; the stall is the worst delay past the
// usual one. Commands on stdin, one a line: `watch <id> <proxy port>`, `end <id>`; answers on stdout
// as JSON lines. Started by observerClient.ts.
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { startUpstream, WATCH_SESSION } from './upstream';

/** The watched stream: an event every 10 ms for as long as any probe runs. */
const PACE_MS = 10;
const EVENTS = 100_000;

interface Watch {
  delays: number[];
  chunks: number;
  error: string | null;
  stop: () => void;
}

const say = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

function watch(port: number): Watch {
  const state: Watch = { delays: [], chunks: 0, error: null, stop: () => undefined };
  const body = JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'watch' }], metadata: { user_id: JSON.stringify({ session_id: WATCH_SESSION }) } });
  const outgoing = request({ host: '127.0.0.1', port, path: '/v1/messages', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-reliability': `paced:${EVENTS}:${PACE_MS}` } }, (response) => {
    let rest = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      const now = performance.timeOrigin + performance.now();
      state.chunks += 1;
      rest += chunk;
      const events = rest.split('\n\n');
      rest = events.pop() ?? '';
      for (const text of events) {
        const at = /"at":([0-9.]+)/.exec(text);
        if (at) state.delays.push(now - Number(at[1]));
      }
    });
    response.on('error', () => undefined);
  });
  outgoing.on('error', (error) => (state.error ??= error.message));
  outgoing.end(body);
  state.stop = () => outgoing.destroy();
  return state;
}

function summary(id: string, state: Watch): unknown {
  const sorted = [...state.delays].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const worst = sorted.at(-1) ?? 0;
  return { id, events: sorted.length, chunks: state.chunks, error: state.error, medianDelayMs: median, stallMs: Math.max(0, worst - median) };
}

async function main(): Promise<void> {
  const upstream = await startUpstream();
  say({ url: upstream.url });
  const watches = new Map<string, Watch>();
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, id = '', port = '0'] = line.trim().split(/\s+/);
    if (command === 'watch') watches.set(id, watch(Number(port)));
    else if (command === 'end') {
      const state = watches.get(id);
      watches.delete(id);
      state?.stop();
      say(state ? summary(id, state) : { id, error: 'no such watch' });
    }
  }
  await upstream.stop();
  process.exit(0);
}

void main();
