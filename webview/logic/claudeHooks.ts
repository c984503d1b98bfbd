// The header's line saying whether Claude Code is connected in this workspace, and the action that
// changes it; for a Codex session, that Codex has no such hooks. DOM-free so it is unit-tested
// under node; words and an icon, never colour alone.
import type { ClaudeHooks, WebviewCommand } from '../../src/protocol/messages';

export interface ClaudeHooksLine {
  /** A codicon name. */
  icon: string;
  text: string;
  /** None where nothing can be connected. */
  action?: { label: string; command: WebviewCommand; title: string };
}

/** The line's input: Claude Code's connection state, or `codex` when a Codex session is shown. */
export type HooksLineState = ClaudeHooks | 'codex';

const CONNECT_TITLE = 'Shows the change to .claude/settings.local.json in the diff editor and asks before writing';

export function claudeHooksLine(state: HooksLineState): ClaudeHooksLine {
  switch (state) {
    case 'codex':
      // Codex CLI runs no hook before or after its own compaction: steering it means compacting here.
      return { icon: 'info', text: 'Codex CLI has no compaction hooks: compact here with Compact…, then continue the fork with `codex resume`' };
    case 'connected':
      return {
        icon: 'plug',
        text: 'Claude Code hooks: connected',
        action: { label: 'Disconnect', command: 'disconnectClaudeCode', title: 'Removes exactly what Connect added to .claude/settings.local.json, after showing the change and asking' },
      };
    case 'partial':
      // Connect adds only what is missing, so it is the way to complete a partial connection.
      return { icon: 'warning', text: 'Claude Code hooks: partly connected', action: { label: 'Connect…', command: 'connectClaudeCode', title: CONNECT_TITLE } };
    case 'disconnected':
      return {
        icon: 'debug-disconnect',
        text: "Claude Code hooks: not connected — keep your constraints through Claude Code's own compactions",
        action: { label: 'Connect…', command: 'connectClaudeCode', title: CONNECT_TITLE },
      };
  }
}
