// A compaction of a Codex session as the rollout that applies it (see fork.ts): Codex stores one
// history item per content block, so each item of the live history is kept, dropped, or kept with
// its compacted tool output, as the fork plan (common/forkPlan.ts) says.
import { forkPlanOf } from '../common/forkPlan';
import type { ForkInput } from '../port';
import { fail, ok } from '../result';
import type { Result } from '../types';
import type { CodexForkRequest } from './fork';
import { readSource } from './fork';
import { callIdOf, isToolCall, isToolOutput } from './records';

export async function codexForkRequestFromResult(input: ForkInput): Promise<Result<Omit<CodexForkRequest, 'now' | 'newId'>>> {
  const planned = forkPlanOf(input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const path = input.live.session.path;
  // The bytes the plan was made from, not what the agent appended since (an output to a kept call).
  const end = input.live.readEnd;
  const source = await readSource(path, end);
  if (!source.ok) return source;
  const items = new Map(source.value.history.items.map((placed) => [placed.ref, placed.item]));
  // One history item per block: a call or an output by its call id, anything else by its message.
  const preserveRefs: string[] = [];
  const replaceOutput: Record<string, string> = {};
  for (const entry of input.live.entries) {
    for (const ref of entry.uuids) {
      const item = items.get(ref);
      if (item === undefined) return fail('invalid-input', `Item ${ref} of the live context is not in ${path}`, path);
      const id = callIdOf(item) ?? '';
      const tool = isToolCall(item) ? plan.toolFate('tool_use', id) : isToolOutput(item) ? plan.toolFate('tool_result', id) : undefined;
      const kept = isToolCall(item) || isToolOutput(item) ? tool?.fate !== 'dropped' : plan.textKept(entry.messageIndex);
      if (!kept) continue;
      preserveRefs.push(ref);
      const text = isToolOutput(item) ? plan.compactedResult(id) : undefined;
      if (text !== undefined) replaceOutput[ref] = text;
    }
  }
  // `title` (in the plan's meta) is the fork's own; the source's is the session's, remembered as source_title.
  return ok({
    sourcePath: path,
    ...(end === undefined ? {} : { sourceEnd: end }),
    summary: plan.summary,
    preserveRefs,
    replaceOutput,
    ...plan.meta,
    sourceTitle: input.live.session.title,
  });
}
