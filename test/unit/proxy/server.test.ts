// The loopback server: refuses foreign Host headers, forwards headers and bodies untouched when
// nothing is edited, pipes SSE as it arrives, records usage (cache figures included) in the event
// stream without bodies or credentials, caps bodies, and turns a dying upstream into an error.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { startLiveProxy, type LiveProxy } from '../../../src/proxy';
import { requestTarget } from '../../../src/proxy/server';
import { readProxyEvents } from '../../../src/proxy/events';
import { bytesOf, conversation } from '../../support/proxyConversation';
import { tempDir } from '../../support/tempDir';

const SECRET = 'sk-ant-api03-secretKeyThatMustNeverBeLogged0000';

interface Seen {
  headers: IncomingMessage['headers'];
  path: string;
  body: Buffer;
}

/** An upstream that records what it got and answers with `respond`. */
async function upstream(respond: (seen: Seen, response: ServerResponse) => void): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const entry = { headers: req.headers, path: req.url ?? '', body: Buffer.concat(parts) };
      seen.push(entry);
      respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

function call(
  proxy: { port: number },
  options: { path: string; body?: Buffer; headers?: Record<string, string>; onChunk?: (chunk: string, at: number) => void },
): Promise<{ status: number; text: string; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: proxy.port,
        path: options.path,
        method: options.body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          options.onChunk?.(chunk.toString('utf8'), Date.now());
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const SSE_USAGE = { input_tokens: 12, cache_read_input_tokens: 3000, cache_creation_input_tokens: 400, output_tokens: 1 };

describe('proxy server', () => {
  const state = tempDir('cl-proxy-server-');
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const stop of stops) await stop();
  });
  async function proxyTo(url: string, live = {}): Promise<LiveProxy> {
    const started = await startLiveProxy({ upstream: url, env: {}, stateDir: join(state, String(stops.length)), live });
    assert.ok(started.ok, started.ok ? '' : started.error);
    stops.push(() => started.value.stop(100));
    // The rewrite thread up (from source it loads through tsx, ~1 s): the tests time the streams.
    await started.value.rewriter.warmUp();
    return started.value;
  }

  it('forwards headers and the original bytes untouched, never logs them, and records exact usage from the JSON body', async () => {
    const up = await upstream((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'message',
          content: [],
          usage: { input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 900, cache_creation_input_tokens: 10 },
        }),
      );
    });
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(up.url);
    const raw = Buffer.from(`${JSON.stringify(conversation({ turns: 2 }))}  `);
    const answer = await call(proxy, { path: '/v1/messages?beta=true', body: raw, headers: { 'x-api-key': SECRET, 'anthropic-version': '2023-06-01' } });
    assert.equal(answer.status, 200);
    const got = up.seen[0];
    assert.ok(got);
    assert.equal(got.path, '/v1/messages?beta=true');
    assert.equal(got.headers['x-api-key'], SECRET);
    assert.equal(got.headers['anthropic-version'], '2023-06-01');
    assert.ok(got.body.equals(raw), 'the original bytes, whitespace included');
    await proxy.stop(100);
    const events = await readProxyEvents(proxy.eventsPath);
    assert.ok(events.ok);
    assert.equal(events.value.length, 1);
    const event = events.value[0];
    assert.equal(event?.action, 'unchanged');
    assert.deepEqual(event?.usage, { inputTokens: 50, outputTokens: 7, cacheReadTokens: 900, cacheCreationTokens: 10 });
    const file = readFileSync(proxy.eventsPath, 'utf8');
    assert.ok(!file.includes(SECRET) && !file.includes('file0.ts'), 'no credentials, no bodies');
    assert.equal(statSync(proxy.eventsPath).mode & 0o777, 0o600);
    assert.equal(statSync(proxy.stateDir).mode & 0o777, 0o700);
  });

  it('refuses a Host header that is not loopback (DNS rebinding) and forwards nothing', async () => {
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(up.url);
    for (const host of ['evil.example.com', `evil.example.com:${proxy.port}`, `127.0.0.1:${proxy.port + 1}`, '127.0.0.1.nip.io']) {
      const answer = await call(proxy, { path: '/v1/messages', body: bytesOf(conversation({ turns: 1 })), headers: { host } });
      assert.equal(answer.status, 403, host);
    }
    assert.equal((await call(proxy, { path: '/v1/models', headers: { host: `localhost:${proxy.port}` } })).status, 200);
    assert.equal(up.seen.length, 1);
  });

  it('passes count_tokens and other paths through', async () => {
    const up = await upstream((seen, res) => res.end(JSON.stringify({ path: seen.path })));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(up.url, { windowTokens: 1_000, triggerPercent: 10 });
    const raw = bytesOf(conversation({ turns: 12 }));
    const answer = await call(proxy, { path: '/v1/messages/count_tokens', body: raw });
    assert.equal(answer.text, JSON.stringify({ path: '/v1/messages/count_tokens' }));
    assert.ok(up.seen[0]?.body.equals(raw));
  });

  it('pipes SSE events as they arrive and reads the cache figures from message_start/message_delta', async () => {
    const up = await upstream((_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: SSE_USAGE } })}\n\n`);
      setTimeout(() => {
        res.write(`event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: {}, usage: { ...SSE_USAGE, output_tokens: 42 } })}\n\n`);
        res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
      }, 300);
    });
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(up.url);
    const started = Date.now();
    const arrivals: number[] = [];
    const answer = await call(proxy, {
      path: '/v1/messages',
      body: bytesOf(conversation({ turns: 1, stream: true })),
      onChunk: (_chunk, at) => arrivals.push(at - started),
    });
    assert.match(answer.text, /message_stop/);
    assert.ok((arrivals[0] ?? Infinity) < 250, `first event after ${arrivals[0]} ms: not buffered`);
    await proxy.stop(100);
    const events = await readProxyEvents(proxy.eventsPath);
    assert.ok(events.ok);
    assert.deepEqual(events.value[0]?.usage, { inputTokens: 12, outputTokens: 42, cacheReadTokens: 3000, cacheCreationTokens: 400 });
    assert.equal(events.value[0]?.stream, true);
  });

  it('an upstream dying mid-stream ends the stream with an API error event; an unreachable one is a 502', async () => {
    const up = await upstream((_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: SSE_USAGE } })}\n\n`);
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const proxy = await proxyTo(up.url);
    const answer = await call(proxy, { path: '/v1/messages', body: bytesOf(conversation({ turns: 1, stream: true })) });
    assert.match(answer.text, /event: error\ndata: .*"api_error"/);
    await new Promise<void>((resolve) => up.server.close(() => resolve()));
    const down = await call(proxy, { path: '/v1/messages', body: bytesOf(conversation({ turns: 1 })) });
    assert.equal(down.status, 502);
    assert.match(down.text, /upstream unreachable/);
    await proxy.stop(100);
    const events = await readProxyEvents(proxy.eventsPath);
    assert.ok(events.ok);
    assert.match(events.value[0]?.error ?? '', /closed mid-response/);
    assert.match(events.value[1]?.error ?? '', /upstream/);
  });

  it('an upstream dying mid-event: the client gets every whole event, not the cut one, then an error event it can parse', async () => {
    const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: SSE_USAGE } })}\n\n`;
    const delta = `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'half of this' } })}\n\n`;
    const up = await upstream((_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // One whole event and a half, in chunks cut inside lines.
      res.write(start.slice(0, 20));
      setTimeout(() => res.write(start.slice(20) + delta.slice(0, 40)), 10);
      setTimeout(() => res.socket?.destroy(), 60);
    });
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(up.url);
    const answer = await call(proxy, { path: '/v1/messages', body: bytesOf(conversation({ turns: 1, stream: true })) });
    const events = answer.text.split('\n\n').filter((event) => event !== '');
    assert.equal(events.length, 2, answer.text);
    assert.equal(`${events[0] ?? ''}\n\n`, start);
    assert.match(events[1] ?? '', /^event: error\ndata: /);
    // Every data line parses as JSON, as the SDK parses it.
    for (const event of events) for (const line of event.split('\n')) if (line.startsWith('data: ')) JSON.parse(line.slice(6));
  });

  it('a compressed request that inflates past the limit is refused with 413 at once, without inflating it all', async () => {
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const started = await startLiveProxy({ upstream: up.url, env: {}, stateDir: join(state, 'bomb'), maxBodyBytes: 8 * 1024 * 1024 });
    assert.ok(started.ok);
    stops.push(() => started.value.stop(100));
    // 128 MB of zeros in about 128 KB of gzip: sixteen times the limit.
    const bomb = gzipSync(Buffer.alloc(128 * 1024 * 1024), { level: 1 });
    const began = performance.now();
    const answer = await call(started.value, { path: '/v1/messages', body: bomb, headers: { 'content-encoding': 'gzip' } });
    const took = performance.now() - began;
    assert.equal(answer.status, 413);
    assert.match(answer.text, /once decompressed \(gzip\)/);
    assert.equal(up.seen.length, 0);
    assert.ok(took < 2_000, `${took.toFixed(0)} ms`);
    // A small compressed request still goes through as it came.
    const small = gzipSync(bytesOf(conversation({ turns: 2 })));
    const fine = await call(started.value, { path: '/v1/messages', body: small, headers: { 'content-encoding': 'gzip' } });
    assert.equal(fine.status, 200);
    assert.deepEqual(up.seen[0]?.body, small);
  });

  it('refuses a body over the limit with 413', async () => {
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const started = await startLiveProxy({ upstream: up.url, env: {}, stateDir: join(state, 'limit'), maxBodyBytes: 1_000 });
    assert.ok(started.ok);
    stops.push(() => started.value.stop(100));
    const answer = await call(started.value, { path: '/v1/messages', body: bytesOf(conversation({ turns: 3 })) });
    assert.equal(answer.status, 413);
    assert.equal(up.seen.length, 0);
  });

  it('a chunked body over the limit gets its 413, not a reset connection', async () => {
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const started = await startLiveProxy({ upstream: up.url, env: {}, stateDir: join(state, 'chunked'), maxBodyBytes: 64 * 1024 });
    assert.ok(started.ok);
    stops.push(() => started.value.stop(100));
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: started.value.port,
          path: '/v1/messages',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      const part = Buffer.alloc(16 * 1024, 0x20);
      for (let index = 0; index < 32; index++) req.write(part);
      req.end();
    });
    assert.equal(answer.status, 413);
    assert.match(answer.text, /over 65536 bytes/);
    assert.equal(up.seen.length, 0);
  });

  it('a declared body over the limit is answered 413 once it arrived, even to clients that close the connection', async () => {
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const started = await startLiveProxy({ upstream: up.url, env: {}, stateDir: join(state, 'declared'), maxBodyBytes: 256 * 1024 });
    assert.ok(started.ok);
    stops.push(() => started.value.stop(100));
    const body = Buffer.alloc(8 * 1024 * 1024, 0x20);
    // agent: false sends `Connection: close`; answered before the upload ended, Node closed the socket under it (EPIPE).
    const answers = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<number | string>((resolve) => {
            const req = request(
              {
                host: '127.0.0.1',
                port: started.value.port,
                path: '/v1/messages',
                method: 'POST',
                agent: false,
                headers: { 'content-type': 'application/json', 'content-length': body.length },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              },
            );
            req.on('error', (error) => resolve(error.message));
            req.end(body);
          }),
      ),
    );
    assert.deepEqual(
      answers,
      Array.from({ length: 8 }, () => 413),
    );
    assert.equal(up.seen.length, 0);
  });

  it('serves only origin-form targets, dot segments resolved under the upstream base path', async () => {
    assert.deepEqual(requestTarget('/v1/messages?beta=true'), { path: '/v1/messages', search: '?beta=true' });
    assert.deepEqual(requestTarget('/../../etc/passwd'), { path: '/etc/passwd', search: '' });
    assert.deepEqual(requestTarget('/v1/./x/../messages'), { path: '/v1/messages', search: '' });
    for (const bad of ['http://evil.example/v1/messages', '//evil.example/v1', '*', 'v1/messages']) assert.equal(requestTarget(bad), null, bad);
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(`${up.url}/base`);
    await call(proxy, { path: '/../../secret' });
    assert.equal(up.seen[0]?.path, '/base/secret');
  });

  it('bodies held at once are bounded proxy-wide: past the budget a request is answered 503 and may retry', async () => {
    const up = await upstream((_seen, res) => setTimeout(() => res.end('{}'), 300));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const started = await startLiveProxy({ upstream: up.url, env: {}, stateDir: join(state, 'held'), maxBodyBytes: 1024 * 1024, maxHeldBytes: 1536 * 1024 });
    assert.ok(started.ok);
    stops.push(() => started.value.stop(100));
    const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(1000 * 1024) }));
    const answers = await Promise.all([0, 1, 2].map(() => call(started.value, { path: '/v1/other', body })));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 503, 503]);
    assert.match(answers.find((answer) => answer.status === 503)?.text ?? '', /overloaded_error.*busy/);
    // Given back when the response is done.
    assert.equal((await call(started.value, { path: '/v1/other', body })).status, 200);
  });

  it('edited requests go out with the new length and as JSON', async () => {
    const up = await upstream((_seen, res) => res.end('{}'));
    stops.push(() => new Promise((resolve) => up.server.close(() => resolve())));
    const proxy = await proxyTo(up.url, { windowTokens: 20_000, triggerPercent: 50, budgetMs: 5_000 });
    await call(proxy, { path: '/v1/messages', body: bytesOf(conversation({ turns: 12 })) });
    const got = up.seen[0];
    assert.ok(got);
    assert.equal(Number(got.headers['content-length']), got.body.length);
    assert.match(got.body.toString('utf8'), /ctx-lens:[0-9a-f]{16}/);
  });
});
