// Building blocks of a scripted Gemini conversation and the choice of the step that answers a
// request (the position logic is the shared ScriptCursor).
import { ScriptCursor, type ScriptPosition } from '../scriptCursor';
import { contentText, functionResponses, lastContent } from './request';
import type { GeminiRequest, Reply, ReplyPart, Scenario, Step } from './types';

export const text = (value: string): ReplyPart => ({ type: 'text', text: value });
export const thought = (value: string): ReplyPart => ({ type: 'thought', text: value });
export const call = (name: string, args: Readonly<Record<string, unknown>>): ReplyPart => ({ type: 'call', name, args });
export const reply = (...parts: ReplyPart[]): Reply => ({ parts });

export function defaultSummary(request: GeminiRequest): string {
  const prompts = request.contents.filter((content) => content.role === 'user' && functionResponses(content).length === 0).length;
  return `<state_snapshot>\n<overall_goal>Continue the user's task; ${prompts} user message(s) so far.</overall_goal>\n</state_snapshot>`;
}

const defaultFallback: Step = () => reply(text('Done.'));

export class GeminiScript {
  private readonly cursor: ScriptCursor<Step>;

  constructor(private readonly scenario: Scenario) {
    this.cursor = new ScriptCursor(scenario.prompts);
  }

  answer(request: GeminiRequest): { reply: Reply; position: ScriptPosition | null } {
    const last = lastContent(request);
    const results = functionResponses(last);
    const isPrompt = last?.role === 'user' && results.length === 0;
    const { step, position } = this.cursor.next({
      // The CLI prefixes the call ids it was given with the tool's name (`read_file__call_fake000001`).
      resultIds: results.flatMap((result) => (result.id === undefined ? [] : [result.id, result.id.slice(result.id.indexOf('__') + 2)])),
      ...(isPrompt ? { promptText: contentText(last) } : {}),
    });
    const chosen = step ?? this.scenario.fallback ?? defaultFallback;
    return { reply: chosen({ request, last, results: results.map((result) => result.response) }), position };
  }

  issued(position: ScriptPosition | null, callIds: readonly string[]): void {
    this.cursor.issued(position, callIds);
  }
}
