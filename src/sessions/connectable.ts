// The agents Context Lens can connect to (those whose adapter has a `connection`), for the host's
// Connect command and the CLI's `connect`, `disconnect`, `mcp` and `hook`: an agent named by id, or
// the only one there is when none is named.
import { AGENTS } from './agents';
import type { AgentConnection } from './connection';
import type { AgentAdapter } from './port';
import { fail, ok } from './result';
import type { Result } from './types';

export interface Connectable {
  readonly adapter: AgentAdapter;
  readonly connection: AgentConnection;
}

/** In the registry's order. */
export function connectableAgents(): Connectable[] {
  return AGENTS.flatMap((adapter) => (adapter.connection ? [{ adapter, connection: adapter.connection }] : []));
}

/**
 * The agent `id` names, or, when none is named, the one whose connection is the default (Claude
 * Code: its commands predate `--agent`, so `ctxlens connect` alone keeps meaning it), else the only one.
 */
export function connectableAgent(id?: string): Result<Connectable> {
  const all = connectableAgents();
  const names = all.map(({ adapter }) => adapter.id).join(', ');
  if (id === undefined) {
    const chosen = all.find(({ connection }) => connection.byDefault === true) ?? (all.length === 1 ? all[0] : undefined);
    return chosen ? ok(chosen) : fail('invalid-input', `Name the agent to connect (one of ${names})`);
  }
  const adapter = AGENTS.find((one) => one.id === id);
  if (adapter?.connection === undefined) return fail('invalid-input', `${adapter?.name ?? `'${id}'`} cannot be connected; the agents that can: ${names}`);
  return ok({ adapter, connection: adapter.connection });
}
