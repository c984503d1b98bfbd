// `ctxlens resident`: the resident reader the extension starts (host/ResidentCli.ts) and keeps for
// its terminals. Serves until its standard input closes (the extension host is gone) or a signal.
import { EXIT_OK, inputError, parse, usageError, type Io } from './io';
import { main } from './main';
import { untilSignal } from './proxy';
import { ResidentServer } from './residentServer';
import { keepReads } from '../sessions/common/readMemo';

export const RESIDENT_USAGE = `ctxlens resident --socket PATH
  Keeps the CLI loaded and answers \`inspect\` and \`sessions\` for the \`ctxlens\` commands whose
  CONTEXT_LENS_RESIDENT names PATH (VS Code's terminals, where the extension starts it); any other
  command, or one it cannot answer, runs in the command's own process as usual. PATH's folder must
  be the user's alone, and PATH fit in a socket's path (107 bytes; 103 on macOS). Serves until its
  standard input closes or it is stopped.`;

export async function residentCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parse(args, { socket: { type: 'string' } }, 0);
  if (values.socket === undefined) throw usageError('--socket PATH is required');
  const log = (line: string): void => void io.err.write(`ctxlens resident: ${line}\n`);
  // A session asked about again, unchanged, is not read again.
  keepReads();
  const listening = await ResidentServer.listen(values.socket, (argv, out, err, env) => main(argv, out, err, env), log);
  if (!listening.ok) throw inputError(listening.error);
  const server = listening.value;
  io.out.write(`Serving on ${server.socketPath}\n`);
  await Promise.race([untilSignal(), stdinClosed()]);
  await server.close();
  log(`stopped: ${server.counts.served} served, ${server.counts.local} left to the client, ${server.counts.refused} refused`);
  return EXIT_OK;
}

/** Resolves when whoever started this closes its end of standard input (or it was never open). */
function stdinClosed(): Promise<void> {
  return new Promise((settle) => {
    process.stdin.on('end', settle).on('close', settle).on('error', settle).resume();
  });
}
