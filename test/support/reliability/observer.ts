// The reliability suite's witness, in a process of its own so the load the test makes cannot stall
// it: it runs the stand-in upstream (upstream.ts) and, on request, a normal streaming call through the
// proxy whose every event is stamped by the upstream when written. The delay of each event (read −
// written) shows how long the proxy held the stream back; the stall is the worst delay past the
// usual one. The witness is a process too and, on a busy machine, is itself not running at times:
// an event that arrived while it was not running is read late through no fault of the proxy. So it
// notes the gaps in its own event loop (a 5 ms tick that came late) and takes from each event's
// delay the part of it the witness spent not running; the stall is reported net of that, beside the
// raw figure and the witness's own worst lag (perf_hooks' event-loop delay). Commands on stdin, one a line: `watch <id> <proxy port>`, `end <id>`; answers on stdout
// as JSON lines. Started by observerClient.ts.
import { request } from 'node:http';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startUpstream, WATCH_SESSION } from './upstream';

/** The watched stream: an event every 10 ms for as long as any probe runs. */
const PACE_MS = 10;
const EVENTS = 100_000;

/** The witness checks its own loop this often: a tick later than this was time it did not run. */
const TICK_MS = 5;

interface Watch {
  /** When each event was written (upstream's stamp) and read, epoch ms. */
  events: { written: number; read: number }[];
  chunks: number;
  error: string | null;
  /** When the witness's loop did not run, oldest first (epoch ms). */
  gaps: { from: number; to: number }[];
  lag: IntervalHistogram;
  stop: () => void;
}

const nowMs = (): number => performance.timeOrigin + performance.now();

/** How much of [from, to] the witness spent not running. */
function ownTime(gaps: readonly { from: number; to: number }[], from: number, to: number): number {
  let total = 0;
  for (const gap of gaps) total += Math.max(0, Math.min(gap.to, to) - Math.max(gap.from, from));
  return total;
}

/** Notes every gap in the witness's own loop until the returned function is called. */
function noteGaps(gaps: { from: number; to: number }[]): () => void {
  let last = nowMs();
  const ticker = setInterval(() => {
    const now = nowMs();
    if (now - last > TICK_MS + 1) gaps.push({ from: last + TICK_MS, to: now });
    last = now;
  }, TICK_MS);
  return () => clearInterval(ticker);
}

const say = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

function watch(port: number): Watch {
  const lag = monitorEventLoopDelay({ resolution: TICK_MS });
  lag.enable();
  const state: Watch = { events: [], chunks: 0, error: null, gaps: [], lag, stop: () => undefined };
  const stopNoting = noteGaps(state.gaps);
  const body = JSON.stringify({
    model: 'claude-sonnet-5-5',
    max_tokens: 10,
    stream: true,
    messages: [{ role: 'user', content: 'watch' }],
    metadata: { user_id: JSON.stringify({ session_id: WATCH_SESSION }) },
  });
  const outgoing = request(
    {
      host: '127.0.0.1',
      port,
      path: '/v1/messages',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-reliability': `paced:${EVENTS}:${PACE_MS}` },
    },
    (response) => {
      let rest = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = nowMs();
        state.chunks += 1;
        rest += chunk;
        const events = rest.split('\n\n');
        rest = events.pop() ?? '';
        for (const text of events) {
          const at = /"at":([0-9.]+)/.exec(text);
          if (at) state.events.push({ written: Number(at[1]), read: now });
        }
      });
      response.on('error', () => undefined);
    },
  );
  outgoing.on('error', (error) => (state.error ??= error.message));
  outgoing.end(body);
  state.stop = () => {
    outgoing.destroy();
    stopNoting();
    lag.disable();
  };
  return state;
}

/** The worst delay past the usual one, of the raw delays or of the delays net of the witness's own. */
function stallOf(delays: readonly number[]): { median: number; stall: number } {
  const sorted = [...delays].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return { median, stall: Math.max(0, (sorted.at(-1) ?? 0) - median) };
}

/**
 * Net delays are worked out at the end: a gap is noted when the witness runs again, which may be
 * after it read the event that waited through it.
 */
function summary(id: string, state: Watch): unknown {
  const raw = stallOf(state.events.map((event) => event.read - event.written));
  const net = stallOf(state.events.map((event) => event.read - event.written - ownTime(state.gaps, event.written, event.read)));
  return {
    id,
    events: state.events.length,
    chunks: state.chunks,
    error: state.error,
    medianDelayMs: raw.median,
    stallMs: net.stall,
    rawStallMs: raw.stall,
    ownLagMs: state.lag.max / 1e6,
  };
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
