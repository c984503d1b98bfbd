// Whether `npm start` can have its port, checked before it claims anything: a second `npm start`
// (or any other program) on the port would otherwise answer the URL we print while our own
// code-server dies of EADDRINUSE. What is there is named, and a free port suggested.
import { createServer } from 'node:net';

/** Null when `port` on 127.0.0.1 can be listened on, else the listen error's code (EADDRINUSE, EACCES…). */
export function listenError(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(null)));
  });
}

/** What answers HTTP on the port: code-server says so at /healthz. */
async function whatAnswers(port: number): Promise<string> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    const body = await response.text();
    if (response.ok && /"status"\s*:/.test(body)) return 'a code-server (an earlier `npm start` still running?)';
    return `a web server (it answered ${response.status})`;
  } catch {
    return 'a program that does not answer HTTP';
  }
}

/** Null when the port is ours to take, else one line saying what holds it and what to do. */
export async function portProblem(port: number, suggest: () => Promise<number>): Promise<string | null> {
  const error = await listenError(port);
  if (error === null) return null;
  if (error !== 'EADDRINUSE')
    return `cannot listen on 127.0.0.1:${port} (${error}): set CONTEXT_LENS_PORT to another port, e.g. CONTEXT_LENS_PORT=${await suggest()} npm start`;
  return `port ${port} is already in use by ${await whatAnswers(port)}: stop it, or choose another port: CONTEXT_LENS_PORT=${await suggest()} npm start`;
}
