// What `ctxlens statusline` needs of the agent whose status line it draws (Claude Code's: the
// only agent that runs a status line command). A light entry of its own, apart from the registry
// (agents.ts), which would pull every reader into the status line's small bundle: a redraw must
// stay about as cheap as starting node (see cli/statuslineMain.ts).
import { claudeCodeStatusLine } from './claude-code/statusline';

type Env = Readonly<Record<string, string | undefined>>;

export interface TranscriptFill {
  usedTokens: number;
  windowTokens: number;
}

/** Cache health of the session's latest calls, as the transcript's tail shows it. */
export interface TranscriptCache {
  /** 0–1 of the prompt tokens those calls sent. */
  hitRatio: number;
  calls: number;
  misses: number;
  /** The latest miss's cause (pricing/cache), or null without a miss. */
  lastCause: string | null;
}

export interface StatusLineSource {
  /** Cache health of the latest calls in the file's tail (no prices: a status line reads no table); null when none is found. */
  transcriptCache(path: string): Promise<TranscriptCache | null>;
  /** Tokens the session's last request sent, and its window, from the file's tail; null when none is found. */
  transcriptFill(path: string): Promise<TranscriptFill | null>;
  /** Where the agent compacts by itself in a window of `windowTokens`, with its own override from `env`. */
  autoCompactTokens(windowTokens: number, env: Env): number;
}

export const statusLineSource: StatusLineSource = claudeCodeStatusLine;
