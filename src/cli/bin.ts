// `dist/cli.js`, the `context-lens` command. In a VS Code terminal a read-only command goes to the
// extension's resident reader (residentClient.ts) when one is named; otherwise, or when it cannot
// answer, this turns on the code cache (codeCache.ts) and runs the CLI proper from
// `dist/cli-main.js`, which is compiled from it. Kept this small so that what is compiled before the
// cache can help is next to nothing.
import type * as Net from 'node:net';
import { enableCodeCache } from './codeCache';
import type { start as Start } from './main';
import { askResident, residentSocketFor } from './residentClient';
import { stderr, stdout } from './stdio';

function runHere(): void {
  enableCodeCache(__dirname, process.env);
  // A require at run time (esbuild leaves it be): the file beside this one, not a bundled copy.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./cli-main.js') as { start: typeof Start }).start();
}

/** node:net is loaded only when there is a socket to connect to: every other run skips it. */
function connect(path: string): Net.Socket {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:net') as typeof Net).connect(path);
}

/** The working folder, or undefined when it is gone: the command says what that means, here. */
function workingFolder(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

const argv = process.argv.slice(2);
const socket = residentSocketFor(argv, process.env);
const cwd = socket === undefined ? undefined : workingFolder();
if (socket === undefined || cwd === undefined) runHere();
else {
  void askResident(socket, { argv, cwd, env: process.env, out: stdout, err: stderr }, connect).then((code) => {
    if (code === null) return runHere();
    // Where a person asks why an answer came so fast (or did not reflect a change in this terminal).
    if (process.env.CONTEXT_LENS_DEBUG) stderr.write(`ctxlens: answered by the resident reader at ${socket}\n`);
    process.exitCode = code;
  });
}
