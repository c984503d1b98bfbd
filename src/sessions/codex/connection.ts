// Connecting Codex CLI in a workspace: a SessionStart hook (matcher "compact") in the project's
// `.codex/hooks.json` that runs `ctxlens hook session-start --agent codex`, and `[features] hooks =
// true` in its `.codex/config.toml`, which Codex needs before it runs any hook. After Codex's own
// compaction the hook prints the pinned block as `additionalContext`, which Codex puts into the next
// request as a developer message. Codex reads a project's `.codex/` only in a folder the person
// trusts, and runs a new hook only once the person has reviewed it (its first start there asks):
// both are Codex's own safety gates, named in the plan's notes, never bypassed by us.
import { join } from 'node:path';
import type { HookName } from '../../contracts/hooks';
import { ctxlensCommand, isCtxlensCommand } from '../common/hookCommands';
import { connectHooks, disconnectHooks, hooksPresent, type OurHook } from '../common/hookSettings';
import { planOf, readWorkspaceText, saveChanges } from '../common/connectFiles';
import type { AgentConnection, CommandPaths, ConnectionState, ConnectVerb } from '../connection';
import { ok } from '../result';
import { disableHooks, enableHooks, hooksEnabled } from './featuresToml';
import { forEachCodexPinSource } from './pinSources';
import { DEFAULT_CODEX_WINDOW_TOKENS } from './window';

export const CODEX_HOOKS_FILE = ['.codex', 'hooks.json'] as const;
export const CODEX_CONFIG_FILE = ['.codex', 'config.toml'] as const;

const HOOK_ARGS = 'hook session-start --agent codex';

function ourHooks(paths: CommandPaths): OurHook[] {
  return [{ event: 'SessionStart', matcher: 'compact', command: ctxlensCommand(paths, HOOK_ARGS) }];
}

const isOurs = (command: string): boolean => isCtxlensCommand(command, HOOK_ARGS);

const NOTES = [
  'Codex reads .codex/ only in a folder you trust, and runs a new hook once you have reviewed it: the first `codex` start in this folder asks for both (or use /hooks). `codex exec` skips hooks not yet trusted.',
];

async function plan(verb: ConnectVerb, folder: string, paths: CommandPaths) {
  const hooksPath = join(folder, ...CODEX_HOOKS_FILE);
  const configPath = join(folder, ...CODEX_CONFIG_FILE);
  const hooksFile = await readWorkspaceText(folder, hooksPath);
  if (!hooksFile.ok) return hooksFile;
  const configFile = await readWorkspaceText(folder, configPath);
  if (!configFile.ok) return configFile;
  const hooks = ourHooks(paths);
  const edits =
    verb === 'connect'
      ? [
          { file: hooksFile.value, edit: connectHooks(hooksFile.value.text, hooks, isOurs, '.codex/hooks.json') },
          { file: configFile.value, edit: enableHooks(configFile.value.text, '.codex/config.toml') },
        ]
      : [
          { file: hooksFile.value, edit: disconnectHooks(hooksFile.value.text, hooks, isOurs, '.codex/hooks.json') },
          { file: configFile.value, edit: disableHooks(configFile.value.text) },
        ];
  return ok(planOf(verb, hooksPath, edits, verb === 'connect' ? NOTES : []));
}

async function state(folder: string, paths: CommandPaths) {
  const hooksFile = await readWorkspaceText(folder, join(folder, ...CODEX_HOOKS_FILE));
  if (!hooksFile.ok) return hooksFile;
  const configFile = await readWorkspaceText(folder, join(folder, ...CODEX_CONFIG_FILE));
  if (!configFile.ok) return configFile;
  const hooks = hooksPresent(hooksFile.value.text, ourHooks(paths), isOurs) > 0;
  const on = hooksEnabled(configFile.value.text);
  const value: ConnectionState = hooks && on ? 'connected' : hooks ? 'partial' : 'disconnected';
  return ok(value);
}

/** Codex's hook output: the block as `additionalContext` of SessionStart. */
function output(_name: HookName, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`;
}

export const codexConnection: AgentConnection = {
  watchFiles: [CODEX_HOOKS_FILE.join('/'), CODEX_CONFIG_FILE.join('/')],
  describe: {
    connect:
      'Adds a SessionStart hook to .codex/hooks.json (after Codex compacts a session, it puts your rules, decisions and open loops and your recent prompts back into the next request) and turns hooks on in .codex/config.toml.',
    disconnect: 'Removes exactly the hook and the line that Connect added to .codex/hooks.json and .codex/config.toml; everything else stays.',
  },
  caveat: 'Codex runs it only once you trust this folder and the hook: start `codex` here and accept both (or use /hooks); until then `codex exec` skips it.',
  hooks: { kinds: ['session-start'], defaultWindowTokens: DEFAULT_CODEX_WINDOW_TOKENS, forEachPinSource: forEachCodexPinSource, output },
  plan,
  save: (planned, env) => saveChanges(workspaceOf(planned.settingsPath), planned, env),
  state,
};

/** The workspace of `<workspace>/.codex/hooks.json`. */
function workspaceOf(hooksPath: string): string {
  return join(hooksPath, '..', '..');
}
