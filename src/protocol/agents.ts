// How the panel and the CLI name each agent, and what moves its own auto-compact point. One table,
// so a Codex session never reads "Claude Code" anywhere.

export interface AgentLabel {
  /** In sentences: "past Codex's auto-compact point". */
  readonly name: string;
  /** The gauge's mark for the agent's own auto-compact point. */
  readonly mark: string;
  /** What moves that point, for the mark's tooltip. */
  readonly pointSetBy: string;
}

const LABELS: Readonly<Record<string, AgentLabel>> = {
  'claude-code': { name: 'Claude Code', mark: 'CC', pointSetBy: 'the CLAUDE_AUTOCOMPACT_PCT_OVERRIDE environment variable (or contextLens.window.overrideTokens for the window size)' },
  codex: { name: 'Codex', mark: 'CX', pointSetBy: "model_auto_compact_token_limit in Codex's config.toml (default: 90 % of the model's window)" },
};

/** The label of an agent id; an unknown or missing one reads as Claude Code, the first agent. */
export function agentLabel(agent: string | null | undefined): AgentLabel {
  return LABELS[agent ?? ''] ?? (LABELS['claude-code'] as AgentLabel);
}
