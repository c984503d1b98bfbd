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
 * write cannot finish that way (a non-blocking pipe that is full, a closed reader), Node's stream
 * takes the rest and everything after it, in order, and reports what went wrong as it would have.
 */
export function descriptorOutput(fd: number, stream: () => NodeJS.WritableStream): Output {
  let fallback: NodeJS.WritableStream | undefined;
  return {
    write(text: string): unknown {
      if (fallback !== undefined) return fallback.write(text);
      const bytes = Buffer.from(text);
      let written = 0;
      try {
        while (written < bytes.length) written += writeSync(fd, bytes, written);
        return true;
      } catch {
        fallback = stream();
        return fallback.write(bytes.subarray(written));
      }
    },
  };
}

export const stdout: Output = descriptorOutput(1, () => process.stdout);
export const stderr: Output = descriptorOutput(2, () => process.stderr);
