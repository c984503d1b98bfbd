// The header's line saying whether the followed agent runs Context Lens's hooks around its own
// compactions, where they are, what the agent still needs before it runs them, and the action that
// changes it; for an agent without such hooks, how to steer it instead. DOM-free so it is
// unit-tested under node; words and an icon, never colour alone.
import type { AgentHooks, WebviewCommand } from '../../src/protocol/messages';

export interface AgentHooksLine {
  /** A codicon name. */
  icon: string;
  text: string;
  /** None where nothing can be connected. */
  action?: { label: string; command: WebviewCommand; title: string };
  /** The line's tooltip: what Connect installs and injects. */
  title?: string;
  /** Said after the line with a warning icon: the agent will not run the hooks until the person does this. */
  caveat?: string;
}

export function agentHooksLine(hooks: AgentHooks): AgentHooksLine {
  const line = stateLine(hooks);
  return {
    ...line,
    ...(hooks.detail ? { title: hooks.detail } : {}),
    ...(hooks.caveat && hooks.state !== 'none' && hooks.state !== 'disconnected' ? { caveat: hooks.caveat } : {}),
  };
}

function stateLine({ agent, state, where, installs = 'hooks' }: AgentHooks): AgentHooksLine {
  const connectTitle = `Shows the change to ${where} in the diff editor and asks before writing`;
  switch (state) {
    case 'none':
      // No hook runs before or after the agent's own compaction: steering it means compacting here.
      return { icon: 'info', text: `${agent} has no compaction hooks: compact here with Compact…, then continue the fork with \`${where}\`` };
    case 'connected':
      return {
        icon: 'plug',
        text: `${agent} ${installs}: connected in ${where}`,
        action: {
          label: 'Disconnect',
          command: 'disconnectAgent',
          title: `Removes exactly what Connect added to ${where}, after showing the change and asking`,
        },
      };
    case 'partial':
      // Connect adds only what is missing, so it is the way to complete a partial connection.
      // Also what an outdated connection reads as (hooks that run another ctxlens than this one).
      return {
        icon: 'warning',
        text: `${agent} ${installs}: partly connected or outdated in ${where}`,
        action: { label: 'Connect…', command: 'connectAgent', title: `Completes or updates it. ${connectTitle}` },
      };
    case 'disconnected':
      return {
        icon: 'debug-disconnect',
        text: `${agent} ${installs}: not connected — keep your constraints through ${agent}'s own compactions`,
        action: { label: 'Connect…', command: 'connectAgent', title: connectTitle },
      };
  }
}
