// One payload written to a Unix socket (the resident reader's) and every line sent back before the
// server closes: what a client that is not ours sees.
import { createConnection } from 'node:net';

export function exchange(socket: string, payload: string | Buffer): Promise<string[]> {
  return new Promise((resolve) => {
    const client = createConnection(socket);
    let text = '';
    client.on('connect', () => client.write(payload));
    client.on('data', (chunk) => (text += chunk.toString('utf8')));
    // An error is followed by close: what came back until then is the answer (none, for a refused connection).
    client.on('error', () => undefined);
    client.on('close', () => resolve(text.split('\n').filter((line) => line !== '')));
  });
}
