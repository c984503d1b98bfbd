// Texts every agent's fork opens with, so a resumed fork reads the same whoever wrote it.

/** Claude Code opens its own summaries with this sentence; resumed sessions (Codex's too) read the same way. */
export const SUMMARY_PREAMBLE =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

/** Written when only tiers 1–3 ran: nothing was summarised, but the fork still opens with a summary. */
export const IN_PLACE_NOTE = 'Context Lens compacted older tool results in place (stubbed, cleared or truncated); no earlier messages were removed.';
