// Live proxy benchmark: prints figures, asserts nothing. Run with `npx tsx bench/proxy.bench.ts`
// (PROXY_PROCESS=1 after `npm run build`: the proxy as `ctxlens proxy` in its own process).
// Added latency per request at 10k, 100k and 1M tokens (end to end through the proxy minus straight
// to the same loopback stub upstream, paired run by run, and the proxy's own time per request from its
// events), for a request below the trigger (original bytes), one above it carrying sticky edits, and
// the same with the panel's say for its session on disk; then each wire format's own cost per
// request (Anthropic Messages, OpenAI Responses, Chat Completions, Gemini: the same conversation in
// each shape, below the trigger and carrying sticky edits); then requests/s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { panelDir, startLiveProxy, writePanelInstructions } from '../src/proxy';
import { readProxyEvents } from '../src/proxy/events';
import { asChat, asGemini, asResponses, bytesOf, conversation } from '../test/support/proxyConversation';

const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function stubUpstream(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // No usage: the proxy keeps its default tokens-per-byte, so the sticky case stays above the trigger.
      res.end('{"type":"message","content":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const SESSION = 'b3a1c0de-0000-4000-8000-000000000be9';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function post(port: number, body: Buffer, path = '/v1/messages'): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Added latency, paired: each run posts the body straight to the upstream and then through the
 * proxy, and keeps the difference, so a slow moment of the machine lands on both halves of a pair.
 */
async function addedLatencies(upstreamPort: number, proxyPort: number, body: Buffer, runs: number): Promise<number[]> {
  await post(upstreamPort, body);
  await post(proxyPort, body);
  const out: number[] = [];
  for (let run = 0; run < runs; run++) {
    const direct = await post(upstreamPort, body);
    out.push((await post(proxyPort, body)) - direct);
  }
  return out;
}

/** Label, turns of ~1k tokens, runs: enough runs that p99 is not the one slowest moment of the machine. */
const SIZES: readonly (readonly [string, number, number])[] = [
  ['10k', 10, 300],
  ['100k', 100, 300],
  ['1M', 1000, 60],
];

const fmt = (value: number): string => value.toFixed(2).padStart(8);

/** The knobs each case sets, the same for both ways of starting the proxy. */
type Knobs = { windowTokens: number; triggerPercent: number; budgetMs: number };

/** A proxy under test: started in this process, or as `ctxlens proxy` in its own (PROXY_PROCESS=1). */
interface Proxy {
  port: number;
  eventsPath: string;
  stop(): Promise<void>;
}

async function inProcess(upstream: string, stateDir: string, live: Knobs): Promise<Proxy> {
  const started = await startLiveProxy({ upstream, env: {}, stateDir, live });
  if (!started.ok) throw new Error(started.error);
  return { port: started.value.port, eventsPath: started.value.eventsPath, stop: () => started.value.stop(100) };
}

/** The proxy as a terminal user runs it: its own Node process, its own event loop and heap. */
async function ownProcess(upstream: string, stateDir: string, live: Knobs): Promise<Proxy> {
  const cli = join(__dirname, '../dist/cli.js');
  const child = spawn(
    process.execPath,
    [
      cli,
      'proxy',
      '--upstream',
      upstream,
      '--state-dir',
      stateDir,
      '--window',
      String(live.windowTokens),
      '--trigger-percent',
      String(live.triggerPercent),
      '--budget-ms',
      String(live.budgetMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`ctxlens proxy exited (${code}); run npm run build first`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { port, eventsPath: join(stateDir, 'events.jsonl'), stop: async () => void (child.kill('SIGTERM'), await exited) };
}

async function main(): Promise<void> {
  const upstream = await stubUpstream();
  const upstreamPort = Number(new URL(upstream.url).port);
  const start = process.env.PROXY_PROCESS === '1' ? ownProcess : inProcess;
  console.log(
    `proxy added latency per request (ms): end to end via proxy − direct, and the proxy’s own time (events addedMs); proxy ${start === ownProcess ? 'in its own process (dist/cli.js proxy)' : 'in this process'}`,
  );
  console.log('size       case       e2e p50  e2e p99   own p50  own p99');
  // BENCH_SIZES=10k,100k runs only those.
  const only = process.env.BENCH_SIZES?.split(',');
  for (const [label, turns, runs] of SIZES.filter(([label]) => !only || only.includes(label))) {
    const body = bytesOf(conversation({ turns, resultChars: 4_000, userId: JSON.stringify({ device_id: 'bench', account_uuid: '', session_id: SESSION }) }));
    for (const mode of ['below', 'sticky', 'panel'] as const) {
      const state = mkdtempSync(join(tmpdir(), 'cl-proxy-bench-'));
      // Below: a window far larger than the request. Sticky: a window the request overflows, so the
      // first request makes a batch and every measured one re-applies it (budget off to measure it all).
      // Panel: sticky, plus the panel's file for the session (a stat per request) and one dropped result.
      const windowTokens = mode === 'below' ? 10_000_000 : Math.round(body.length / 4 / 0.9);
      if (mode === 'panel') {
        // The panel has a say about this session (a drop): every request looks its file up.
        const dropped = await writePanelInstructions(panelDir(state), SESSION, { drop: ['toolu_000001'] });
        if (!dropped.ok) throw new Error(dropped.error.message);
      }
      const proxy = await start(upstream.url, state, { windowTokens, triggerPercent: 75, budgetMs: 60_000 });
      const added = await addedLatencies(upstreamPort, proxy.port, body, runs);
      await proxy.stop();
      const events = await readProxyEvents(proxy.eventsPath);
      const measured = events.ok ? events.value.slice(2) : [];
      const own = measured.map((event) => event.addedMs);
      const actions = [...new Set(measured.map((event) => event.action))].join(',');
      console.log(
        `${label.padEnd(6)} ${`${mode} (${actions})`.padEnd(18)} ${fmt(percentile(added, 50))} ${fmt(percentile(added, 99))} ${fmt(percentile(own, 50))} ${fmt(percentile(own, 99))}`,
      );
      rmSync(state, { recursive: true, force: true });
    }
  }

  // Each format's own cost: the proxy's time per request (events addedMs) for the same conversation in each API's shape.
  console.log('format              size  case            own p50  own p99');
  const FORMATS: readonly [string, string, (turns: number) => Buffer][] = [
    ['anthropic-messages', '/v1/messages', (turns) => bytesOf(conversation({ turns, resultChars: 4_000, userId: JSON.stringify({ session_id: SESSION }) }))],
    ['openai-responses', '/v1/responses', (turns) => bytesOf(asResponses(conversation({ turns, resultChars: 4_000 })))],
    ['openai-chat', '/v1/chat/completions', (turns) => bytesOf(asChat(conversation({ turns, resultChars: 4_000 })))],
    ['gemini', '/v1beta/models/gemini-2.5-pro:generateContent', (turns) => bytesOf(asGemini(conversation({ turns, resultChars: 4_000 })))],
  ];
  for (const [format, path, bodyOf] of FORMATS) {
    for (const [label, turns, runs] of SIZES.filter(([label]) => !only || only.includes(label))) {
      const body = bodyOf(turns);
      for (const mode of ['below', 'sticky'] as const) {
        const state = mkdtempSync(join(tmpdir(), 'cl-proxy-bench-'));
        const windowTokens = mode === 'below' ? 10_000_000 : Math.round(body.length / 4 / 0.9);
        const proxy = await start(upstream.url, state, { windowTokens, triggerPercent: 75, budgetMs: 60_000 });
        for (let run = 0; run < Math.ceil(runs / 3) + 2; run++) await post(proxy.port, body, path);
        await proxy.stop();
        const events = await readProxyEvents(proxy.eventsPath);
        const measured = events.ok ? events.value.slice(2) : [];
        const own = measured.map((event) => event.addedMs);
        const actions = [...new Set(measured.map((event) => event.action))].join(',');
        console.log(`${format.padEnd(19)} ${label.padEnd(5)} ${`${mode} (${actions})`.padEnd(15)} ${fmt(percentile(own, 50))} ${fmt(percentile(own, 99))}`);
        rmSync(state, { recursive: true, force: true });
      }
    }
  }

  // Throughput: 32 requests in flight of a 10k-token body for three seconds.
  const state = mkdtempSync(join(tmpdir(), 'cl-proxy-bench-'));
  const proxy = await start(upstream.url, state, { windowTokens: 10_000_000, triggerPercent: 75, budgetMs: 50 });
  const body = bytesOf(conversation({ turns: 10, resultChars: 4_000 }));
  let done = 0;
  const until = performance.now() + 3_000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) {
        await post(proxy.port, body);
        done += 1;
      }
    }),
  );
  console.log(`requests/s through the proxy (10k-token body, 32 in flight, loopback stub upstream): ${(done / 3).toFixed(0)}`);
  await proxy.stop();
  rmSync(state, { recursive: true, force: true });
  agent.destroy();
  upstream.close();
}

void main();
