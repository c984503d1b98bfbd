// `npm start`'s output: one short line per step on the terminal, everything the steps print (the
// build, packaging, code-server's first install with hundreds of native-build warnings) in a log
// file. A step that fails prints the log's last lines and where the whole log is.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** How many of the log's last lines a failed step shows. */
export const TAIL_LINES = 40;

/** The last `count` non-empty lines of `text` (a log ends with the lines that say what went wrong). */
export function tailLines(text: string, count: number): string[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.slice(Math.max(0, lines.length - count));
}

export class StepFailed extends Error {}

export class StartLog {
  /** The log's file descriptor, for a child's stdout and stderr. */
  readonly fd: number;
  private count = 0;

  /** Opens (truncates) the log at `path`; `say` writes a progress line on the terminal. */
  constructor(
    readonly path: string,
    private readonly say: (line: string) => void = (line) => console.log(line),
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w', 0o600);
  }

  /** A line in the log only, for what the steps themselves say. */
  note(line: string): void {
    writeSync(this.fd, `${line}\n`);
  }

  /** Runs `work` as one step: "title… done in 1.2 s" on the terminal; on failure the log's tail and its path. */
  step<T>(title: string, work: () => T | Promise<T>): Promise<T> {
    this.count += 1;
    const started = Date.now();
    this.note(`\n=== ${this.count}. ${title}`);
    this.say(`${this.count}. ${title}…`);
    return Promise.resolve()
      .then(work)
      .then(
        (value) => {
          this.say(`   done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          return value;
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          this.note(message);
          throw new StepFailed(
            `${title} failed: ${message}\n\nThe last lines of ${this.path}:\n${tailLines(readFileSync(this.path, 'utf8'), TAIL_LINES)
              .map((line) => `  ${line}`)
              .join('\n')}\n\nThe whole log: ${this.path}`,
          );
        },
      );
  }

  /** Runs a Node script of the repository with its output in the log; a non-zero exit fails the step. */
  node(script: string, args: readonly string[], cwd: string): void {
    const result = spawnSync(process.execPath, [script, ...args], { cwd, stdio: ['ignore', this.fd, this.fd] });
    if (result.status !== 0) throw new Error(`node ${[script, ...args].join(' ')} exited with ${result.status ?? result.signal}`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
