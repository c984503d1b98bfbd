// Where a scripted model conversation stands, shared by the loopback stand-ins of the model APIs.
// A user prompt opens the script it matches; a tool result moves on to the step after the one that
// made the call (call ids are the stand-in's own, so they say which step that was); anything else
// (a summary a compaction put at the end of the history, a "continue") goes on after the last step
// answered. Each stand-in says how to read a prompt and a tool result out of its own request.

export interface ScriptPosition {
  readonly prompt: number;
  readonly step: number;
}

export interface PromptSteps<Step> {
  /** Recognises the prompt (the text of a user message) this script answers. */
  readonly prompt: string | RegExp;
  readonly steps: readonly Step[];
}

/** What the request ends with, as far as the cursor cares. */
export interface LastTurn {
  /** Call ids of the tool results it carries (empty when none). */
  readonly resultIds: readonly string[];
  /** Its text when it is a person's message. */
  readonly promptText?: string;
}

export class ScriptCursor<Step> {
  private readonly calls = new Map<string, ScriptPosition>();
  private lastAnswered: ScriptPosition | null = null;

  constructor(private readonly prompts: readonly PromptSteps<Step>[]) {}

  /** The step that answers `last` (undefined past the end of a script or for an unknown prompt) and where it sits. */
  next(last: LastTurn): { step: Step | undefined; position: ScriptPosition | null } {
    const position = this.position(last);
    if (position !== null) this.lastAnswered = position;
    return { step: position === null ? undefined : this.prompts[position.prompt]?.steps[position.step], position };
  }

  /** Remembers the call ids a reply's tool calls were given, so their results find their way back. */
  issued(position: ScriptPosition | null, callIds: readonly string[]): void {
    if (position === null) return;
    for (const id of callIds) this.calls.set(id, position);
  }

  private position(last: LastTurn): ScriptPosition | null {
    const call = last.resultIds.map((id) => this.calls.get(id)).find((found) => found !== undefined);
    if (call !== undefined) return { prompt: call.prompt, step: call.step + 1 };
    if (last.promptText !== undefined) {
      const text = last.promptText;
      const prompt = this.prompts.findIndex((script) => (typeof script.prompt === 'string' ? text.includes(script.prompt) : script.prompt.test(text)));
      if (prompt !== -1) return { prompt, step: 0 };
    }
    return this.lastAnswered === null ? null : { prompt: this.lastAnswered.prompt, step: this.lastAnswered.step + 1 };
  }
}
