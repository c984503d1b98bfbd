// Proxy soak benchmark: prints figures, asserts nothing. `npx tsx bench/proxy.soak.ts` (SECONDS=60 by
// default, CLIENTS=64). The built proxy (`cli.js proxy`, bundled here as esbuild.mjs bundles it) in
// its own process; 64 clients, each an agent session whose conversation grows a turn per request
// past the trigger, so requests go through the rewrite path (batches, then sticky edits), streamed.
// Every stream is compared byte for byte with what the loopback upstream sent. Reports the proxy's
// RSS sampled every 250 ms (peak, median, end), end-to-end latency via the proxy against the same
// load sent straight to the upstream (p50/p99 and the difference), the proxy's own time per request
// (events addedMs), actions and errors.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProxyEvents } from '../src/proxy/events';
import { buildCliBundles } from '../test/support/cliBundle';
import { bytesOf, conversation } from '../test/support/proxyConversation';
import { peakRssKb, rssKb, startProxyProcess } from '../test/support/reliability/processes';
import { startUpstream, streamBytes } from '../test/support/reliability/upstream';

const SECONDS = Number(process.env.SECONDS ?? 60);
const CLIENTS = Number(process.env.CLIENTS ?? 64);
/** The straight-to-upstream baseline runs this long (same clients, same bodies). */
const BASELINE_SECONDS = Math.max(3, Math.round(SECONDS / 6));
/** Conversations start here and grow a turn per request; past LAST_TURN a client starts a new session. */
const FIRST_TURN = 30;
const LAST_TURN = 90;
/** ~1k tokens a turn: a 40k window puts every request past the trigger, so the proxy edits. */
const WINDOW = 40_000;

const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

interface Tally {
  latencies: number[];
  requests: number;
  mismatches: number;
  errors: string[];
}

function post(port: number, agent: Agent, body: Buffer, seed: number): Promise<{ ms: number; ok: boolean; error: string | null }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/messages',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-reliability': `stream:${seed}` },
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () => {
          const ok = response.statusCode === 200 && Buffer.concat(parts).equals(streamBytes(seed));
          resolve({ ms: performance.now() - started, ok, error: response.statusCode === 200 ? null : `status ${response.statusCode}` });
        });
        response.on('error', (error) => resolve({ ms: performance.now() - started, ok: false, error: error.message }));
      },
    );
    outgoing.on('error', (error) => resolve({ ms: performance.now() - started, ok: false, error: error.message }));
    outgoing.end(body);
  });
}

/** The session id a body template carries, replaced per client (same length as any UUID). */
const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

/**
 * One body per conversation length, built once: 64 clients serialising 300 KB of JSON per request
 * made the benchmark's own process the bottleneck. A request copies its template and writes its
 * session id over the placeholder.
 */
const TEMPLATES = new Map<number, { bytes: Buffer; at: number }>();
function bodyOf(turns: number, session: string): Buffer {
  let template = TEMPLATES.get(turns);
  if (!template) {
    const bytes = bytesOf(
      conversation({ turns, stream: true, resultChars: 4_000, userId: JSON.stringify({ device_id: 'soak', account_uuid: '', session_id: PLACEHOLDER }) }),
    );
    template = { bytes, at: bytes.lastIndexOf(PLACEHOLDER) };
    TEMPLATES.set(turns, template);
  }
  const body = Buffer.from(template.bytes);
  body.write(session, template.at, 'latin1');
  return body;
}

/** CLIENTS sessions sending for `seconds`, each waiting for its answer before the next turn. */
async function load(port: number, seconds: number): Promise<Tally> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const tally: Tally = { latencies: [], requests: 0, mismatches: 0, errors: [] };
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      let session = randomUUID();
      // Clients start at different lengths, so their batches do not all fall on the same moment.
      let turns = FIRST_TURN + (client % 20);
      while (performance.now() < until) {
        const seed = tally.requests + client * 1_000_003;
        const body = bodyOf(turns, session);
        const result = await post(port, agent, body, seed);
        tally.requests += 1;
        tally.latencies.push(result.ms);
        if (result.error) tally.errors.push(result.error);
        else if (!result.ok) tally.mismatches += 1;
        turns += 1;
        if (turns > LAST_TURN) {
          turns = FIRST_TURN;
          session = randomUUID();
        }
      }
    }),
  );
  agent.destroy();
  return tally;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'cl-soak-'));
  const bundles = await buildCliBundles(join(scratch, 'dist'));
  const upstream = await startUpstream();
  const upstreamPort = Number(new URL(upstream.url).port);
  console.log(
    `proxy soak: ${CLIENTS} clients × ${SECONDS} s through the rewrite path (conversations of ${FIRST_TURN}–${LAST_TURN} turns, ~1k tokens each, window ${WINDOW}), streamed; baseline ${BASELINE_SECONDS} s straight to the upstream`,
  );

  for (let turns = FIRST_TURN; turns <= LAST_TURN; turns++) bodyOf(turns, PLACEHOLDER);
  const direct = await load(upstreamPort, BASELINE_SECONDS);
  const stateDir = join(scratch, 'state');
  const proxy = await startProxyProcess(bundles.cli, { upstream: upstream.url, stateDir, args: ['--window', String(WINDOW)] });
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const kb = rssKb(proxy.pid);
    if (kb !== null) samples.push(kb);
  }, 250);
  const via = await load(proxy.port, SECONDS);
  clearInterval(sampler);
  const endKb = rssKb(proxy.pid);
  const hwmKb = peakRssKb(proxy.pid);
  await proxy.stop();
  const events = await readProxyEvents(join(stateDir, 'events.jsonl'));
  const messages = events.ok ? events.value.filter((event) => event.path === '/v1/messages') : [];
  const actions = new Map<string, number>();
  for (const event of messages) actions.set(event.action, (actions.get(event.action) ?? 0) + 1);
  const own = messages.map((event) => event.addedMs);

  const mb = (kb: number | null | undefined): string => (kb == null ? '—' : (kb / 1024).toFixed(0));
  const ms = (value: number): string => value.toFixed(1);
  console.log(
    `requests: ${via.requests} via the proxy (${(via.requests / SECONDS).toFixed(0)}/s), ${direct.requests} direct (${(direct.requests / BASELINE_SECONDS).toFixed(0)}/s)`,
  );
  console.log(
    `streams byte-identical to the upstream's: ${via.requests - via.mismatches - via.errors.length}/${via.requests}; mismatches ${via.mismatches}; errors ${via.errors.length}${via.errors.length > 0 ? ` (${[...new Set(via.errors)].slice(0, 3).join('; ')})` : ''}`,
  );
  console.log(`actions: ${[...actions].map(([action, count]) => `${action} ${count}`).join(', ')}`);
  console.log(
    `latency end to end (ms): direct p50 ${ms(percentile(direct.latencies, 50))} p99 ${ms(percentile(direct.latencies, 99))}; via proxy p50 ${ms(percentile(via.latencies, 50))} p99 ${ms(percentile(via.latencies, 99))}; added p50 ${ms(percentile(via.latencies, 50) - percentile(direct.latencies, 50))} p99 ${ms(percentile(via.latencies, 99) - percentile(direct.latencies, 99))}`,
  );
  console.log(`proxy's own time per request (events addedMs): p50 ${ms(percentile(own, 50))} p99 ${ms(percentile(own, 99))} max ${ms(Math.max(0, ...own))}`);
  console.log(
    `proxy RSS (MB), sampled every 250 ms: peak ${mb(Math.max(...samples))} (VmHWM ${mb(hwmKb)}), median ${mb(percentile(samples, 50))}, end ${mb(endKb)}`,
  );
  await upstream.stop();
  rmSync(scratch, { recursive: true, force: true });
}

void main();
