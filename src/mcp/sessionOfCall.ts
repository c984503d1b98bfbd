// Which agent session a tool call belongs to. Claude Code names it in the server's environment
// (CLAUDE_CODE_SESSION_ID). Codex CLI starts its MCP servers with HOME, PATH and LANG only, in the
// session's folder; Gemini CLI and OpenCode name no session to them either. Without a name the
// server asks the proxy's events which conversations it served lately: one, and the call is that
// one's (by the agent's own id when the requests carried it); several, and the call is refused,
// saying why, rather than guessing between two sessions of the same folder.
import { join } from 'node:path';
import { EVENTS_FILE, readProxyEvents } from '../proxy/events';
import type { Result } from '../sessions/types';

/** How far back a conversation counts as live. */
export const LIVE_WINDOW_MS = 10 * 60 * 1000;

/** The conversations the proxy served in the last `windowMs`: agent session ids, or `proxy:<key>` for one the requests did not name. */
export async function liveSessions(stateDir: string, now: number = Date.now(), windowMs = LIVE_WINDOW_MS): Promise<Set<string>> {
  const read = await readProxyEvents(join(stateDir, EVENTS_FILE));
  const live = new Set<string>();
  if (!read.ok) return live;
  for (const event of read.value) {
    if (event.action === 'passthrough' || event.session === '' || now - Date.parse(event.time) > windowMs) continue;
    live.add(event.agentSession ?? `proxy:${event.session}`);
  }
  return live;
}

/**
 * The session a call applies to: `named` (from the environment) when there is one, else the one
 * conversation the proxy served lately (null when its requests named no agent session, or the
 * proxy served none yet), else why it cannot tell.
 */
export async function sessionOfCall(named: string | null, stateDir: string, now: number = Date.now()): Promise<Result<string | null, string>> {
  if (named !== null) return { ok: true, value: named };
  const live = await liveSessions(stateDir, now);
  if (live.size > 1) {
    return {
      ok: false,
      error: `Context Lens cannot tell which conversation called this tool: the agent does not tell its MCP servers their session, and the proxy served ${live.size} conversations in the last ${LIVE_WINDOW_MS / 60_000} minutes. Nothing was done. Run one agent per proxy (\`ctxlens run -- <agent>\`), or compact from the Context Lens panel.`,
    };
  }
  const [only] = live;
  return { ok: true, value: only === undefined || only.startsWith('proxy:') ? null : only };
}
