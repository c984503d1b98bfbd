// Work nobody awaits (a button's follow-up, a command run from a notification): its failure goes to
// the log instead of surfacing as an unhandled rejection with no word of what failed. Free of `vscode`.

export interface WarnLog {
  warn(message: string): void;
}

/** Starts nothing: `work` is already running; a rejection of it is logged as "`what` failed: …". */
export function inBackground(work: PromiseLike<unknown>, log: WarnLog, what: string): void {
  Promise.resolve(work).then(undefined, (error: unknown) => log.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`));
}
