// Exit codes and the expected failure, apart from io.ts so that the dispatcher (main.ts) can use
// them without loading what commands need (the session adapter, zod): `--help` stays cheap.
export const EXIT_OK = 0;
export const EXIT_INPUT = 1;
export const EXIT_USAGE = 2;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_INPUT | typeof EXIT_USAGE,
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError(message, EXIT_USAGE);
export const inputError = (message: string): CliError => new CliError(message, EXIT_INPUT);
