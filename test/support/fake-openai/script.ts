// Chooses the scripted answer from the request's last input item. A user message opens the script
// of the prompt it matches; a tool output moves on to the step after the one that made the call
// (call ids are ours, so they say which step that was). Anything else, such as the summary message
// a mid-turn compaction ends the history with, continues after the last step answered: Codex
// picks the turn up again from its compacted history.
import { ScriptCursor, type ScriptPosition } from '../scriptCursor';
import { itemText, outputText } from './request';
import type { InputItem, Reply, ReplyItem, ResponsesRequest, Scenario, Step } from './types';

export const message = (text: string): ReplyItem => ({ type: 'message', text });
export const reasoning = (summary: string, encrypted?: string): ReplyItem => ({
  type: 'reasoning',
  summary,
  ...(encrypted === undefined ? {} : { encrypted }),
});
export const exec = (cmd: string): ReplyItem => ({ type: 'function_call', name: 'exec_command', arguments: { cmd } });
export const applyPatch = (patch: string): ReplyItem => ({ type: 'custom_tool_call', name: 'apply_patch', input: patch });
export const reply = (...items: ReplyItem[]): Reply => ({ items });

/** A patch in `apply_patch`'s own format that replaces lines of one file. */
export function updatePatch(path: string, remove: readonly string[], add: readonly string[]): string {
  return ['*** Begin Patch', `*** Update File: ${path}`, '@@', ...remove.map((line) => `-${line}`), ...add.map((line) => `+${line}`), '*** End Patch'].join(
    '\n',
  );
}

export function defaultSummary(request: ResponsesRequest): string {
  const prompts = request.input.filter((item) => item.type === 'message' && item.role === 'user').length;
  return `Handoff summary: the user asked for changes to the project; ${prompts} user message(s) so far. Continue with the current task.`;
}

const defaultFallback: Step = () => reply(message('Done.'));

/** Answers each request from the scenario; where the script stands is the shared ScriptCursor. */
export class OpenAIScript {
  private readonly cursor: ScriptCursor<Step>;

  constructor(private readonly scenario: Scenario) {
    this.cursor = new ScriptCursor(scenario.prompts);
  }

  answer(request: ResponsesRequest, last: InputItem | undefined): { reply: Reply; position: ScriptPosition | null } {
    const isPrompt = last?.type === 'message' && last.role === 'user';
    const { step, position } = this.cursor.next({
      resultIds: typeof last?.call_id === 'string' ? [last.call_id] : [],
      ...(isPrompt ? { promptText: itemText(last) } : {}),
    });
    return { reply: (step ?? this.scenario.fallback ?? defaultFallback)({ request, last, output: outputText(last) }), position };
  }

  /** Remembers the call ids a reply's tool calls were given, so their outputs find their way back. */
  issued(position: ScriptPosition | null, callIds: readonly string[]): void {
    this.cursor.issued(position, callIds);
  }
}
