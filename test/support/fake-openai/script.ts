// Chooses the scripted answer from the request's last input item. A user message opens the script
// of the prompt it matches; a tool output moves on to the step after the one that made the call
// (call ids are ours, so they say which step that was). Anything else, such as the summary message
// a mid-turn compaction ends the history with, continues after the last step answered: Codex
// picks the turn up again from its compacted history.
import { itemText, outputText } from './request';
import type { InputItem, Reply, ReplyItem, ResponsesRequest, Scenario, Step } from './types';

export const message = (text: string): ReplyItem => ({ type: 'message', text });
export const reasoning = (summary: string): ReplyItem => ({ type: 'reasoning', summary });
export const exec = (cmd: string): ReplyItem => ({ type: 'function_call', name: 'exec_command', arguments: { cmd } });
export const applyPatch = (patch: string): ReplyItem => ({ type: 'custom_tool_call', name: 'apply_patch', input: patch });
export const reply = (...items: ReplyItem[]): Reply => ({ items });

/** A patch in `apply_patch`'s own format that replaces lines of one file. */
export function updatePatch(path: string, remove: readonly string[], add: readonly string[]): string {
  return ['*** Begin Patch', `*** Update File: ${path}`, '@@', ...remove.map((line) => `-${line}`), ...add.map((line) => `+${line}`), '*** End Patch'].join('\n');
}

export function defaultSummary(request: ResponsesRequest): string {
  const prompts = request.input.filter((item) => item.type === 'message' && item.role === 'user').length;
  return `Handoff summary: the user asked for changes to the project; ${prompts} user message(s) so far. Continue with the current task.`;
}

const defaultFallback: Step = () => reply(message('Done.'));

interface Position {
  readonly prompt: number;
  readonly step: number;
}

export class ScriptCursor {
  /** Which step issued each call id. */
  private readonly calls = new Map<string, Position>();
  private lastAnswered: Position | null = null;

  constructor(private readonly scenario: Scenario) {}

  answer(request: ResponsesRequest, last: InputItem | undefined): { reply: Reply; position: Position | null } {
    const position = this.position(last);
    const steps = position === null ? undefined : this.scenario.prompts[position.prompt]?.steps;
    const step = steps?.[position?.step ?? 0] ?? this.scenario.fallback ?? defaultFallback;
    if (position !== null) this.lastAnswered = position;
    return { reply: step({ request, last, output: outputText(last) }), position };
  }

  /** Remembers the call ids a reply's tool calls were given, so their outputs find their way back. */
  issued(position: Position | null, callIds: readonly string[]): void {
    if (position === null) return;
    for (const id of callIds) this.calls.set(id, position);
  }

  private position(last: InputItem | undefined): Position | null {
    const call = typeof last?.call_id === 'string' ? this.calls.get(last.call_id) : undefined;
    if (call !== undefined) return { prompt: call.prompt, step: call.step + 1 };
    if (last?.type === 'message' && last.role === 'user') {
      const text = itemText(last);
      const prompt = this.scenario.prompts.findIndex((script) => (typeof script.prompt === 'string' ? text.includes(script.prompt) : script.prompt.test(text)));
      if (prompt !== -1) return { prompt, step: 0 };
    }
    return this.lastAnswered === null ? null : { prompt: this.lastAnswered.prompt, step: this.lastAnswered.step + 1 };
  }
}
