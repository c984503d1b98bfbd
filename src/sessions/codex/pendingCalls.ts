// A rollout read while Codex is still running (or left by a crash or Ctrl-C) can end mid-call: the
// `function_call` is written, its output not yet. The Responses API rejects a call without its
// output, so a fork closes such a call the way Codex closes one itself when it normalises a history
// whose call lost its output (codex-rs context_manager/normalize.rs `ensure_call_outputs_present`):
// an output item right after the call whose text is "aborted".
import { callIdOf, isToolCall, isToolOutput, str, type HistoryItem } from './records';

/** Codex's output text for a call that never produced one. */
export const ABORTED_OUTPUT = 'aborted';

/** The output Codex pairs with `call`: custom tools answer with a custom output, the rest with a function output. */
function abortedOutputFor(call: HistoryItem, id: string): HistoryItem {
  return { type: call.type === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output', call_id: id, output: ABORTED_OUTPUT };
}

/**
 * Closes the calls that have no output anywhere in the source's live history (a call whose output
 * exists but was not kept is a split, and stays one: the caller refuses it).
 */
export class PendingCallCloser {
  private readonly answered: Set<string | null>;
  /** One line per closed call, for the fork's notes. */
  readonly notes: string[] = [];

  constructor(source: readonly HistoryItem[]) {
    this.answered = new Set(source.filter(isToolOutput).map(callIdOf));
  }

  /** `item`, followed by Codex's "aborted" output when it is a call still waiting for one. */
  close(item: HistoryItem): HistoryItem[] {
    const id = callIdOf(item);
    if (!isToolCall(item) || id === null || this.answered.has(id)) return [item];
    this.answered.add(id);
    this.notes.push(
      `The source ends mid-call: ${str(item.name) ?? item.type} (${id}) had no output yet; the fork closes it with '${ABORTED_OUTPUT}', the output Codex records for an interrupted call.`,
    );
    return [item, abortedOutputFor(item, id)];
  }
}
