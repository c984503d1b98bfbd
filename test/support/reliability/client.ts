// The reliability suite's hostile and ordinary clients: requests to the proxy that may be refused,
// cut or answered, always resolving with what happened (status, body, or the socket error).
import { request } from 'node:http';
import { connect } from 'node:net';

export interface Answer {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  error: string | null;
  ms: number;
}

export interface Send {
  method?: string;
  path?: string;
  headers?: Record<string, string | number>;
  /** Sent with a content-length, or in `chunks` pieces without one (chunked). */
  body?: Buffer;
  chunked?: boolean;
}

export function send(port: number, options: Send): Promise<Answer> {
  const started = performance.now();
  const body = options.body ?? Buffer.alloc(0);
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Omit<Answer, 'ms'>): void => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: performance.now() - started });
    };
    const headers = { 'content-type': 'application/json', ...(options.chunked ? {} : { 'content-length': body.length }), ...options.headers };
    const outgoing = request(
      { host: '127.0.0.1', port, path: options.path ?? '/v1/messages', method: options.method ?? 'POST', headers, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text = (text + chunk).slice(-100_000)));
        response.on('end', () => done({ status: response.statusCode ?? null, headers: response.headers, text, error: null }));
        response.on('error', (error) => done({ status: response.statusCode ?? null, headers: response.headers, text, error: error.message }));
      },
    );
    outgoing.on('error', (error) => done({ status: null, headers: {}, text: '', error: error.message }));
    if (!options.chunked) {
      outgoing.end(body);
      return;
    }
    // Pieces of 1 MB, each after the previous one drained: a chunked upload as a client streams it.
    let at = 0;
    const pump = (): void => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 1024 * 1024);
        at += piece.length;
        if (!outgoing.write(piece)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      outgoing.end();
    };
    pump();
  });
}

/** A raw request line and headers, written as given (absolute-form targets, odd hosts). */
export function sendRaw(port: number, head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.write(head);
    setTimeout(() => socket.end(), 2_000);
  });
}

/**
 * Sockets that dribble: `headers` send one header byte every `everyMs`, `bodies` declare 1 MB and
 * send 1 KB every `everyMs`. Closed by the function returned.
 */
export function slowClients(port: number, headers: number, bodies: number, everyMs: number): () => void {
  const sockets = Array.from({ length: headers + bodies }, (_, index) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const slowBody = index >= headers;
    const head = slowBody
      ? 'POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n'
      : 'POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(10_000);
    let at = 0;
    if (slowBody) socket.write(head);
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      if (slowBody) socket.write(Buffer.alloc(1024, 0x20));
      else socket.write(head[at++ % head.length] ?? 'a');
    }, everyMs);
    return { socket, timer };
  });
  return () => {
    for (const { socket, timer } of sockets) {
      clearInterval(timer);
      socket.destroy();
    }
  };
}
