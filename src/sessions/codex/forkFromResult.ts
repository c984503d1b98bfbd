// A compaction of a Codex session as the rollout that applies it (see fork.ts): the engine decides
// per content block, Codex stores one history item per block, so each item of the live history is
// kept, dropped, or kept with its compacted tool output; what the engine wrote (summary, re-injected
// constraints) becomes the fork's summary.
import { afterTexts } from '../../engine/afterTexts';
import type { ItemFate } from '../../engine/result';
import { IN_PLACE_NOTE } from '../common/forkTexts';
import type { ForkInput } from '../port';
import { fail, ok } from '../result';
import type { Result } from '../types';
import type { CodexForkRequest } from './fork';
import { readSource } from './fork';
import { callIdOf, isToolCall, isToolOutput } from './records';

export async function codexForkRequestFromResult(input: ForkInput): Promise<Result<Omit<CodexForkRequest, 'now' | 'newId'>>> {
  const { live, context, result } = input;
  const path = live.session.path;
  if (result.status !== 'compacted') return fail('invalid-input', `Nothing to apply: ${result.message}`, path);
  const aligned = afterTexts(result);
  if (aligned === null) return fail('invalid-input', 'The compaction result does not line up with its context', path);
  const source = await readSource(path);
  if (!source.ok) return source;
  const items = new Map(source.value.history.items.map((placed) => [placed.ref, placed.item]));

  // Tool blocks are followed by call id; other blocks by message: an item survives when anything of
  // its message that is not a tool block does.
  const toolFates = new Map<string, ItemFate>();
  const textKept = new Set<number>();
  for (const fate of result.items) {
    const item = context.items[fate.id];
    if (item === undefined || item.messageIndex < 0) continue;
    if (item.toolUseId && (item.kind === 'tool_use' || item.kind === 'tool_result')) toolFates.set(`${item.kind}:${item.toolUseId}`, fate);
    else if (fate.fate !== 'dropped') textKept.add(item.messageIndex);
  }

  const preserveRefs: string[] = [];
  const replaceOutput: Record<string, string> = {};
  for (const entry of live.entries) {
    for (const ref of entry.uuids) {
      const item = items.get(ref);
      if (item === undefined) return fail('invalid-input', `Item ${ref} of the live context is not in ${path}`, path);
      const tool = isToolCall(item) ? toolFates.get(`tool_use:${callIdOf(item)}`) : isToolOutput(item) ? toolFates.get(`tool_result:${callIdOf(item)}`) : undefined;
      const kept = isToolCall(item) || isToolOutput(item) ? tool?.fate !== 'dropped' : textKept.has(entry.messageIndex);
      if (!kept) continue;
      preserveRefs.push(ref);
      const text = isToolOutput(item) && tool?.fate === 'compacted' ? aligned.compacted.get(tool.id) : undefined;
      if (text !== undefined) replaceOutput[ref] = text;
    }
  }
  return ok({
    sourcePath: path,
    summary: aligned.written.length > 0 ? aligned.written.join('\n\n') : IN_PLACE_NOTE,
    preserveRefs,
    replaceOutput,
    focus: input.focus ?? null,
    preTokens: result.metrics.tokensBefore,
    postTokens: result.metrics.tokensAfter,
    ...(input.title !== undefined ? { title: input.title } : {}),
  });
}
