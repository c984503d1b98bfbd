// A loopback stand-in for the Messages API for the reliability suite and the soak benchmark. What it
// answers is chosen by the `x-reliability` request header (the proxy forwards every header):
//   paced:<events>:<ms>  an SSE stream of <events> events, one every <ms> ms, each stamped with the
//                        wall-clock time it was written (so a reader can tell delay added on the way);
//   stream:<seed>        an SSE answer whose bytes follow from <seed> (streamBytes), sent in a few
//                        chunks, so a client can compare what it got byte for byte;
//   die-mid-event        a stream cut in the middle of a `data:` line;
//   (none)               a small JSON answer.
// The request body is read and thrown away; its size is kept for the caller.
import { createServer, type Server } from 'node:http';
import { listenLoopback } from '../scriptedServer';

/** The agent session the observer's watched stream names, so a test can leave its event out. */
export const WATCH_SESSION = '0b5e0000-0000-4000-8000-000000000000';

export interface Upstream {
  readonly url: string;
  /** Bytes of request bodies received, all requests together. */
  readonly bodyBytes: number;
  readonly requests: number;
  stop(): Promise<void>;
}

const event = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

const START = {
  type: 'message_start',
  message: {
    id: 'msg_rel',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  },
};

/** The SSE answer `stream:<seed>` sends: a whole message whose text depends on the seed. */
export function streamBytes(seed: number): Buffer {
  const parts = [
    event('message_start', START),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (let index = 0; index < 12; index++)
    parts.push(
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: `seed ${seed} piece ${index} ${'x'.repeat((seed * 31 + index * 17) % 200)}` },
      }),
    );
  parts.push(event('content_block_stop', { type: 'content_block_stop', index: 0 }));
  parts.push(event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } }));
  parts.push(event('message_stop', { type: 'message_stop' }));
  return Buffer.from(parts.join(''), 'utf8');
}

export async function startUpstream(): Promise<Upstream> {
  let bodyBytes = 0;
  let requests = 0;
  const server: Server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    request.on('end', () => {
      requests += 1;
      response.socket?.setNoDelay(true);
      const mode = String(request.headers['x-reliability'] ?? '');
      const paced = /^paced:(\d+):(\d+)$/.exec(mode);
      const seeded = /^stream:(\d+)$/.exec(mode);
      if (paced) {
        const total = Number(paced[1]);
        const every = Number(paced[2]);
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        let sent = 0;
        const timer = setInterval(() => {
          if (sent === total || response.destroyed) {
            clearInterval(timer);
            response.end();
            return;
          }
          response.write(event('ping', { type: 'ping', n: sent++, at: performance.timeOrigin + performance.now() }));
        }, every);
        response.on('close', () => clearInterval(timer));
      } else if (seeded) {
        const bytes = streamBytes(Number(seeded[1]));
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        // Cut at places that are not event boundaries, as a network would.
        const cuts = [0, 97, Math.floor(bytes.length / 2) + 3, bytes.length - 5, bytes.length];
        for (let index = 1; index < cuts.length; index++) response.write(bytes.subarray(cuts[index - 1], cuts[index]));
        response.end();
      } else if (mode === 'die-mid-event') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(
          event('message_start', START) + event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        );
        response.write('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del');
        setTimeout(() => response.socket?.destroy(), 30);
      } else {
        const body = JSON.stringify({
          id: 'msg_rel',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5-5',
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        });
        // The path it was asked for, so a test can tell where a request target led.
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-upstream-path': encodeURI(request.url ?? ''),
        });
        response.end(body);
      }
    });
  });
  server.keepAliveTimeout = 1_000;
  const listening = await listenLoopback(server);
  return {
    ...listening,
    get bodyBytes() {
      return bodyBytes;
    },
    get requests() {
      return requests;
    },
  };
}
