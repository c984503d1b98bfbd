// The header's line saying whether Claude Code is connected in this workspace, and the action that
// changes it. DOM-free so it is unit-tested under node; words and an icon, never colour alone.
import type { ClaudeHooks, WebviewCommand } from '../../src/protocol/messages';

export interface ClaudeHooksLine {
  /** A codicon name. */
  icon: string;
  text: string;
  action: { label: string; command: WebviewCommand; title: string };
}

const CONNECT_TITLE = 'Shows the change to .claude/settings.local.json in the diff editor and asks before writing';

export function claudeHooksLine(state: ClaudeHooks): ClaudeHooksLine {
  switch (state) {
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
