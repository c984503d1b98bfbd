// What a compaction result means for the session file, item by item, whatever the agent: the engine
// decides per content block, agents store blocks in records or history items, so each adapter asks
// this plan whether a tool block survives (by its call id), whether a message's text does, and what
// text replaces a compacted tool result; the summary and the counts go into the fork as they are.
import { afterTexts, type ItemFate } from '../../engine';
import type { ForkInput } from '../port';
import { fail, ok } from '../result';
import type { PlannedSizes, Result } from '../types';
import { IN_PLACE_NOTE } from './forkTexts';

export interface ForkPlan {
  /** The fate of the tool call or tool result with this id; undefined when the engine saw none. */
  toolFate(kind: 'tool_use' | 'tool_result', id: string): ItemFate | undefined;
  /** Whether anything of this message that is not a tool block survives. */
  textKept(messageIndex: number): boolean;
  /** The stub, clearing or truncation that replaces a compacted tool result, if it was compacted. */
  compactedResult(id: string): string | undefined;
  /** What the fork opens with: what the engine wrote, or the in-place note when it wrote nothing. */
  summary: string;
  /** The fork's metadata, as every adapter's request carries it. */
  meta: { focus: string | null; preTokens: number; postTokens: number; planned: PlannedSizes; title?: string };
}

/** The head as the compaction left it (what the calls measured) and the scale the items were sized at. */
function plannedSizes({ context, result }: ForkInput): PlannedSizes {
  const headTokens = result.after.items.reduce((sum, item) => (item.messageIndex < 0 ? sum + item.tokens : sum), 0);
  return { headTokens, tokenScale: context.tokenScale > 0 ? context.tokenScale : 1 };
}

export function forkPlanOf(input: ForkInput): Result<ForkPlan> {
  const { live, context, result } = input;
  const path = live.session.path;
  if (result.status !== 'compacted') return fail('invalid-input', `Nothing to apply: ${result.message}`, path);
  const aligned = afterTexts(result);
  if (aligned === null) return fail('invalid-input', 'The compaction result does not line up with its context', path);
  const toolFates = new Map<string, ItemFate>();
  const textKept = new Set<number>();
  for (const fate of result.items) {
    const item = context.items[fate.id];
    if (item === undefined || item.messageIndex < 0) continue;
    if (item.toolUseId && (item.kind === 'tool_use' || item.kind === 'tool_result')) toolFates.set(`${item.kind}:${item.toolUseId}`, fate);
    else if (fate.fate !== 'dropped') textKept.add(item.messageIndex);
  }
  return ok({
    toolFate: (kind, id) => toolFates.get(`${kind}:${id}`),
    textKept: (messageIndex) => textKept.has(messageIndex),
    compactedResult: (id) => {
      const fate = toolFates.get(`tool_result:${id}`);
      return fate?.fate === 'compacted' ? aligned.compacted.get(fate.id) : undefined;
    },
    summary: aligned.written.length > 0 ? aligned.written.join('\n\n') : IN_PLACE_NOTE,
    meta: {
      focus: input.focus ?? null,
      preTokens: result.metrics.tokensBefore,
      postTokens: result.metrics.tokensAfter,
      planned: plannedSizes(input),
      ...(input.title !== undefined ? { title: input.title } : {}),
    },
  });
}
