// An upstream that starts a streamed Messages answer and then drops the connection, as a crashing
// API server or a cut network would: for the proxy's "a proper error, not a hang" check.
import { createServer } from 'node:http';
import { listenLoopback } from './scriptedServer';

export interface DyingUpstream {
  readonly url: string;
  /** Messages calls it cut off so far. */
  readonly requests: number;
  stop(): Promise<void>;
}

export async function startDyingUpstream(): Promise<DyingUpstream> {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (!(request.url ?? '').startsWith('/v1/messages') || (request.url ?? '').includes('count_tokens')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
        return;
      }
      requests += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const start = {
        type: 'message_start',
        message: {
          id: 'msg_dying',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      };
      response.write(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`);
      response.write(
        `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
      );
      response.write(
        `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } })}\n\n`,
      );
      setTimeout(() => response.socket?.destroy(), 50);
    });
  });
  const listening = await listenLoopback(server);
  return {
    ...listening,
    get requests() {
      return requests;
    },
  };
}
