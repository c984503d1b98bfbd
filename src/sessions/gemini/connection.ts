// Connecting Gemini CLI in a workspace: a BeforeAgent hook in the project's `.gemini/settings.json`
// running `ctxlens hook before-agent --agent gemini`. Gemini's compression prompt is fixed and its
// PreCompress output ignored, so BeforeAgent's `additionalContext` (appended to the user turn as
// `<hook_context>`) is the one way in. The CLI fires it before it decides to compress, and records
// the context in the chat, where every later request re-sends it: so the block is added only on the
// turns that need it, never on every turn. Those are: a turn that starts at or past the compression
// point (the compression about to run keeps the new turn, block included, after its summary); the
// first turn after a compression that happened between turns (`/compress`); a prompt holding
// `#pinned` (the person asks).
import { dirname, join } from 'node:path';
import type { HookName } from '../../contracts/hooks';
import { planOf, readWorkspaceText, saveChanges } from '../common/connectFiles';
import { ctxlensCommand, isCtxlensCommand } from '../common/hookCommands';
import { connectHooks, disconnectHooks, hooksPresent, type OurHook } from '../common/hookSettings';
import type { AgentConnection, CommandPaths, ConnectionState, ConnectVerb, HookInput, HookTurn } from '../connection';
import { ok } from '../result';
import { readChat } from './chatState';
import { chatPlaceOf } from './paths';
import { forEachGeminiPinSource } from './pinSources';
import { isSummary, promptOf } from './records';
import { DEFAULT_GEMINI_WINDOW_TOKENS, readCompressionThreshold } from './window';

export const GEMINI_SETTINGS_FILE = ['.gemini', 'settings.json'] as const;
/** A prompt holding this asks for the block on its turn. */
export const ASK_FOR_PINNED = '#pinned';

const HOOK_ARGS = 'hook before-agent --agent gemini';
const ourHooks = (paths: CommandPaths): OurHook[] => [{ event: 'BeforeAgent', matcher: null, command: ctxlensCommand(paths, HOOK_ARGS) }];
const isOurs = (command: string): boolean => isCtxlensCommand(command, HOOK_ARGS);

async function plan(verb: ConnectVerb, folder: string, paths: CommandPaths) {
  const path = join(folder, ...GEMINI_SETTINGS_FILE);
  const file = await readWorkspaceText(folder, path);
  if (!file.ok) return file;
  const edit = (verb === 'connect' ? connectHooks : disconnectHooks)(file.value.text, ourHooks(paths), isOurs, '.gemini/settings.json');
  const notes = verb === 'connect' ? ['Gemini CLI reads .gemini/settings.json only in a folder you trust (it asks at its first start there).'] : [];
  return ok(planOf(verb, path, [{ file: file.value, edit }], notes));
}

async function state(folder: string, paths: CommandPaths) {
  const file = await readWorkspaceText(folder, join(folder, ...GEMINI_SETTINGS_FILE));
  if (!file.ok) return file;
  const value: ConnectionState = hooksPresent(file.value.text, ourHooks(paths), isOurs) > 0 ? 'connected' : 'disconnected';
  return ok(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Whether this turn gets the block, from the chat as it stands before the turn is recorded. */
async function turn(_name: HookName, input: HookInput): Promise<HookTurn> {
  if (str(input.prompt)?.includes(ASK_FOR_PINNED)) return { print: true, purpose: 'reinject', why: 'asked' };
  const path = str(input.transcript_path);
  if (path === null) return { print: false, why: 'no chat' };
  const read = await readChat(path, false);
  if (!read.ok) return { print: false, why: `chat not read: ${read.error.message}` };
  const live = read.value.state.conversation.list().map((placed) => placed.message);
  const summary = live.findLastIndex(isSummary);
  if (summary !== -1 && !live.slice(summary + 1).some((message) => promptOf(message) !== null))
    return { print: true, purpose: 'reinject', why: 'first turn after a compression' };
  const place = chatPlaceOf(path);
  const threshold = await readCompressionThreshold({ geminiDir: place?.geminiDir ?? null, cwd: str(input.cwd) });
  const fill = read.value.state.fill({ compressionThreshold: threshold });
  if (fill.usedTokens > 0 && fill.usedTokens >= fill.agentAutoCompactTokens) return { print: true, purpose: 'reinject', why: 'compression due' };
  return { print: false, why: null };
}

/** Gemini's hook output: the block as BeforeAgent's `additionalContext`. */
function output(_name: HookName, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: text } })}\n`;
}

export const geminiConnection: AgentConnection = {
  watchFiles: [GEMINI_SETTINGS_FILE.join('/')],
  describe: {
    connect: `Adds a BeforeAgent hook to .gemini/settings.json: on the turn Gemini CLI compresses the chat (and the first turn after a /compress, or when a prompt holds ${ASK_FOR_PINNED}) it adds your rules, decisions and open loops and your recent prompts to that turn; other turns get nothing.`,
    disconnect: 'Removes exactly the hook that Connect added to .gemini/settings.json; everything else stays.',
  },
  caveat: 'Gemini CLI reads .gemini/settings.json only in a folder you trust: accept the question at its first start here.',
  hooks: { kinds: ['before-agent'], defaultWindowTokens: DEFAULT_GEMINI_WINDOW_TOKENS, forEachPinSource: forEachGeminiPinSource, turn, output },
  plan,
  save: (planned, env) => saveChanges(dirname(dirname(planned.settingsPath)), planned, env),
  state,
};
