// How the panel names the followed session's agent and what moves its own auto-compact point. The
// host fills this from the agent's adapter, so the webview knows no agent and a Codex session never
// reads "Claude Code" anywhere.
import { z } from 'zod';

export const agentLabelSchema = z.object({
  /** In sentences: "past Codex CLI's auto-compact point". */
  name: z.string().max(100),
  /** What moves that point, for the mark's tooltip. */
  pointSetBy: z.string().max(500),
});
export type AgentLabel = z.infer<typeof agentLabelSchema>;

/** Before a session is followed, and for a stale webview that sent none. */
const NO_AGENT: AgentLabel = { name: 'the agent', pointSetBy: "the agent's own settings" };

export function agentLabelOr(label: AgentLabel | null | undefined): AgentLabel {
  return label ?? NO_AGENT;
}
