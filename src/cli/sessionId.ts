// A session named by its id, or by the start of it, as git takes a short commit hash: a prefix that
// starts exactly one session is that session; one that starts several lists them; an exact id always
// wins over longer ids it starts. Agent-neutral: ids are whatever each adapter lists (Claude Code and
// Codex uuids, Gemini CLI's ids and short ids, OpenCode's `ses_…`), and a session inside a store
// (`<store>#<id>`, OpenCode's database) is matched by its path the same way.
import { resolve } from 'node:path';
import type { AgentAdapter, SessionLocations } from '../sessions/port';
import type { SessionInfo } from '../sessions/types';
import { inputError } from './errors';
import { oneLine } from './format';

export interface FoundSession {
  path: string;
  adapter: AgentAdapter;
}

interface Candidate {
  session: SessionInfo;
  adapter: AgentAdapter;
}

/** Listed sessions are never more than this many in the "ambiguous" message. */
const SHOWN = 10;

/**
 * The session `target` names among what `adapters` list in `where`. Throws the CLI's input error
 * when none or several match. A target holding `#` is a store path: its own store is listed.
 */
export async function findSessionById(target: string, adapters: readonly AgentAdapter[], where: SessionLocations): Promise<FoundSession> {
  const store = storeOf(target);
  // The key compared: the session's path inside a store, its id anywhere else.
  const keyOf = (session: SessionInfo): string => (store ? session.path : session.id);
  const wanted = store ? resolve(target) : target;
  const prefixed: Candidate[] = [];
  // Stores that exist but could not be read: when nothing matches, their real error is the answer.
  const unreadable: string[] = [];
  for (const adapter of adapters) {
    const listed = await adapter.listSessions(store ? storeWhere(store, adapters, where) : where);
    // An agent whose folders are missing has no session by that id: the others may.
    if (!listed.ok) {
      if (listed.error.code !== 'not-found' && (!store || (await adapter.owns(target)))) unreadable.push(`${adapter.name}: ${listed.error.message}`);
      continue;
    }
    const exact = listed.value.find((session) => keyOf(session) === wanted);
    if (exact) return { path: exact.path, adapter };
    prefixed.push(...listed.value.filter((session) => keyOf(session).startsWith(wanted)).map((session) => ({ session, adapter })));
  }
  // One session may be listed twice (a config folder named twice): it is still one.
  const distinct = [...new Map(prefixed.map((candidate) => [`${candidate.adapter.id}\0${candidate.session.id}`, candidate])).values()];
  const [only] = distinct;
  if (only && distinct.length === 1) return { path: only.session.path, adapter: only.adapter };
  if (distinct.length > 1) throw inputError(ambiguous(target, distinct));
  const looked = adapters.map((adapter) => `${adapter.name} (--${adapter.home.option}, default ${adapter.home.describe})`);
  if (unreadable.length > 0) throw inputError(`cannot find session '${target}': ${unreadable.join('; ')}`);
  throw inputError(`unknown session id '${target}' (looked in the sessions of ${looked.join(', ')})`);
}

/** `/path/opencode.db#ses_ab` → `/path/opencode.db`; undefined for a plain id. */
function storeOf(target: string): string | undefined {
  const at = target.lastIndexOf('#');
  return at > 0 ? resolve(target.slice(0, at)) : undefined;
}

/** Every agent asked about that one store: only the agent that keeps its sessions there lists any. */
function storeWhere(store: string, adapters: readonly AgentAdapter[], where: SessionLocations): SessionLocations {
  return { ...where, homes: Object.fromEntries(adapters.map((adapter) => [adapter.id, [store]])) };
}

/** One line (the CLI prints errors on one): each candidate's id, agent and title. */
function ambiguous(target: string, candidates: readonly Candidate[]): string {
  const sorted = [...candidates].sort((a, b) => a.session.id.localeCompare(b.session.id));
  const named = sorted.slice(0, SHOWN).map(({ session, adapter }) => `${session.id} (${adapter.name}: ${oneLine(session.title, 50)})`);
  const more = sorted.length > SHOWN ? `, and ${sorted.length - SHOWN} more` : '';
  return `ambiguous session id '${target}': it starts ${sorted.length} sessions, give more of it: ${named.join(', ')}${more}`;
}
