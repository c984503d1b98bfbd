// A command's output written straight to file descriptors 1 and 2. Node builds process.stdout and
// process.stderr on first use (a stream, and for a pipe the net module behind it): about 5 ms each
// of a command that prints one document, and most runs never write to stderr at all.
import { writeSync } from 'node:fs';

/** All a command does with its output. */
export interface Output {
  write(text: string): unknown;
}

/**
 * Writes to `fd` synchronously, as Node's own stdout does for files and (on Linux) pipes. Where a
 * write cannot finish that way (a non-blocking pipe that is full), Node's stream takes the rest and
 * everything after it, in order, and reports what went wrong as it would have. A reader that went
 * away (`ctxlens compact --json | head -1`: EPIPE) is no error of the command's: what is left to
 * say is dropped, quietly, and the command finishes its work and exits with its own code, as Unix
 * tools behind `head` do.
 */
export function descriptorOutput(fd: number, stream: () => NodeJS.WritableStream): Output {
  let fallback: NodeJS.WritableStream | undefined;
  let gone = false;
  return {
    write(text: string): unknown {
      if (gone) return false;
      if (fallback !== undefined) return fallback.write(text);
      const bytes = Buffer.from(text);
      let written = 0;
      try {
        while (written < bytes.length) written += writeSync(fd, bytes, written);
        return true;
      } catch (error) {
        if (isReaderGone(error)) {
          gone = true;
          return false;
        }
        fallback = stream();
        fallback.on('error', (streamError: unknown) => {
          if (isReaderGone(streamError)) gone = true;
          // Anything else is what the stream would have thrown without a listener.
          else
            process.nextTick(() => {
              throw streamError;
            });
        });
        return fallback.write(bytes.subarray(written));
      }
    },
  };
}

/** The other end of the pipe is closed: nobody reads what is written any more. */
export function isReaderGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

export const stdout: Output = descriptorOutput(1, () => process.stdout);
export const stderr: Output = descriptorOutput(2, () => process.stderr);
