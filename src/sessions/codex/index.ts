// Codex CLI adapter: what the host, the CLI and the compaction engine use. Plain Node (no vscode);
// every call returns a result instead of throwing. Reads of one rollout take Codex's configured
// auto-compact limit from the config.toml of the CODEX_HOME the rollout sits in, unless given.
import { fail } from '../result';
import type { LiveContext, Result } from '../types';
import { readCodexFill as readFillDetailed, type CodexFillOptions, type CodexFillRead } from './fill';
import { readCodexLiveContext as readLiveDetailed, type CodexLiveContextOptions } from './liveContext';
import { codexHomeOf } from './paths';
import { readConfiguredAutoCompactLimit } from './window';

export type { CodexFillOptions, CodexFillRead } from './fill';
export type { CodexLiveContextOptions } from './liveContext';
export type { CodexListOptions, CodexSessionListing } from './listing';
export type { CodexHomeOptions } from './paths';
export type { CodexFollowerOptions } from './follower';
export type { CodexForkRequest, CodexForkResult } from './fork';

export { listCodexSessions, findCodexWorkspaceSession, readCodexSessionInfo, isCodexRollout } from './listing';
export { CodexSessionFollower } from './follower';
export { writeCodexFork, uuidv7 } from './fork';
export { resolveCodexHomes, sessionIdFromPath, codexHomeOf, listRolloutFiles } from './paths';
export { codexAutoCompactTokens, readConfiguredAutoCompactLimit, DEFAULT_CODEX_WINDOW_TOKENS } from './window';

/** The options with Codex's configured auto-compact limit filled in from the rollout's CODEX_HOME. */
export async function withConfiguredLimit<T extends CodexFillOptions>(path: string, options: T): Promise<T> {
  if (options.autoCompactTokenLimit !== undefined) return options;
  const home = codexHomeOf(path);
  return { ...options, autoCompactTokenLimit: home === null ? null : await readConfiguredAutoCompactLimit(home) };
}

/** Fill of a rollout, tail first: reads backwards only to the newest usage or compaction. */
export async function readCodexFill(path: string, options: CodexFillOptions = {}): Promise<Result<CodexFillRead>> {
  if (path.trim() === '') return fail('invalid-input', 'No rollout path given');
  return readFillDetailed(path, await withConfiguredLimit(path, options));
}

/** What Codex's model sees now: the history after the last compaction, the fill, every compaction. */
export async function readCodexLiveContext(path: string, options: CodexLiveContextOptions = {}): Promise<Result<LiveContext>> {
  if (path.trim() === '') return fail('invalid-input', 'No rollout path given');
  return readLiveDetailed(path, await withConfiguredLimit(path, options));
}
