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

export interface StatusLineSource {
  /** Tokens the session's last request sent, and its window, from the file's tail; null when none is found. */
  transcriptFill(path: string): Promise<TranscriptFill | null>;
  /** Where the agent compacts by itself in a window of `windowTokens`, with its own override from `env`. */
  autoCompactTokens(windowTokens: number, env: Env): number;
}

export const statusLineSource: StatusLineSource = claudeCodeStatusLine;
