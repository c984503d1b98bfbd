// Connecting OpenCode in a workspace: one plugin file of ours in the project's `.opencode/plugins/`
// (plugin.ts). Nothing of the person's is edited: Connect writes (or re-points) our file, Disconnect
// removes it; a file of that name without our marker is the person's and is left alone. The plugin
// runs `ctxlens hook pre-compact|session-start --agent opencode`, which reads the session from the
// database OpenCode uses (OPENCODE_DB, else its default) by the id the plugin hands over.
import { dirname, join } from 'node:path';
import type { HookName } from '../../contracts/hooks';
import { planOf, readWorkspaceText, saveChanges, type TextEdit } from '../common/connectFiles';
import type { AgentConnection, CommandPaths, ConnectionState, ConnectVerb, HookInput, HookTurn } from '../connection';
import { ok } from '../result';
import { parseSessionPath, resolveDatabases, sessionPath } from '../common/opencodeFamily';
import { OPENCODE_FLAVOUR } from './flavour';
import { forEachOpencodePinSource, opencodeCompacted } from './pinSources';
import { PLUGIN_FILE, PLUGIN_MARKER, pluginText } from './plugin';

/** The window the prompt budget is a share of when the model's is not known (OpenCode's models vary). */
const OPENCODE_BUDGET_WINDOW_TOKENS = 200_000;

function edit(verb: ConnectVerb, text: string | null, paths: CommandPaths): TextEdit {
  const ours = text !== null && text.startsWith(PLUGIN_MARKER);
  if (text !== null && !ours)
    return { ok: false, error: `${PLUGIN_FILE.join('/')} was left alone: it is not a file Context Lens wrote. Rename yours, then connect again.` };
  if (verb === 'connect')
    return {
      ok: true,
      text: pluginText(paths),
      ...(ours && text !== pluginText(paths) ? { notes: ['The Context Lens plugin now runs the current ctxlens.'] } : {}),
    };
  return { ok: true, text: '' };
}

async function plan(verb: ConnectVerb, folder: string, paths: CommandPaths) {
  const path = join(folder, ...PLUGIN_FILE);
  const file = await readWorkspaceText(folder, path);
  if (!file.ok) return file;
  const notes = verb === 'connect' ? ['OpenCode loads the plugin when it starts: sessions started from now on use it.'] : [];
  return ok(planOf(verb, path, [{ file: file.value, edit: edit(verb, file.value.text, paths) }], notes));
}

async function state(folder: string, paths: CommandPaths) {
  const file = await readWorkspaceText(folder, join(folder, ...PLUGIN_FILE));
  if (!file.ok) return file;
  const text = file.value.text;
  const value: ConnectionState = text === null || !text.startsWith(PLUGIN_MARKER) ? 'disconnected' : text === pluginText(paths) ? 'connected' : 'partial';
  return ok(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `<db>#<id>` of the session the plugin names, in the database OpenCode uses (its environment is the hook's). */
async function sessionOf(input: HookInput): Promise<string | null> {
  const given = str(input.transcript_path);
  if (given !== null && parseSessionPath(given) !== null) return given;
  const id = str(input.session_id);
  const db = resolveDatabases(OPENCODE_FLAVOUR, { env: process.env })[0];
  return id === null || db === undefined ? null : sessionPath(db, id);
}

/** pre-compact feeds the summariser; session-start puts the block back once the session has a compaction. */
async function turn(name: HookName, input: HookInput): Promise<HookTurn> {
  if (name === 'pre-compact') return { print: true, purpose: 'summariser', why: null };
  const path = await sessionOf(input);
  return path !== null && (await opencodeCompacted(path))
    ? { print: true, purpose: 'reinject', why: 'after a compaction' }
    : { print: false, why: 'no compaction yet' };
}

export const opencodeConnection: AgentConnection = {
  watchFiles: [PLUGIN_FILE.join('/')],
  installs: 'plugin',
  describe: {
    connect:
      "Adds a Context Lens plugin to .opencode/plugins/: your rules, decisions and open loops and your recent prompts go into OpenCode's own compaction prompt and, after a compaction, into the session's system prompt.",
    disconnect: 'Removes the Context Lens plugin file from .opencode/plugins/; nothing else changes.',
  },
  hooks: {
    kinds: ['pre-compact', 'session-start'],
    defaultWindowTokens: OPENCODE_BUDGET_WINDOW_TOKENS,
    forEachPinSource: forEachOpencodePinSource,
    sessionPath: sessionOf,
    turn,
  },
  plan,
  save: (planned, env) => saveChanges(dirname(dirname(dirname(planned.settingsPath))), planned, env),
  state,
};
