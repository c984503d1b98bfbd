// A compaction result as the Claude Code fork that applies it (the way in is ../engineContext.ts).
// Claude Code stores content blocks in records, so each record is kept, dropped or kept with its
// compacted tool results, as the fork plan (common/forkPlan.ts) says; what the engine wrote itself
// (summary, re-injected constraints) becomes the fork's compact-summary record.
import { forkPlanOf } from '../common/forkPlan';
import { fail, failFromError, ok } from '../result';
import type { ForkInput } from '../port';
import type { ContentBlock, Result } from '../types';
import type { ForkRequest } from './fork';
import { readForward } from './jsonl';
import { contentBlocks, messageOf, toolResultIds, toolUseIds, uuidOf, type RawRecord } from './records';

export async function forkRequestFromResult(input: ForkInput): Promise<Result<Omit<ForkRequest, 'now' | 'newUuid'>>> {
  const planned = forkPlanOf(input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const path = input.live.session.path;
  // The bytes the plan was made from, not what the agent appended since (a result to a kept call).
  const end = input.live.readEnd;
  let records: Map<string, RawRecord>;
  try {
    records = new Map((await readForward(path, end === undefined ? {} : { end })).records.map(({ record }) => [uuidOf(record) ?? '', record]));
  } catch (error) {
    return failFromError(error, path);
  }
  // A record may hold one of several blocks of a message: it survives when its tool blocks do, or
  // (holding none) when its message's text does.
  const preserveUuids: string[] = [];
  const replaceContent: Record<string, ContentBlock[]> = {};
  for (const entry of input.live.entries) {
    for (const uuid of entry.uuids) {
      const record = records.get(uuid);
      if (record === undefined) return fail('invalid-input', `Record ${uuid} of the live context is not in ${path}`, path);
      const blocks = contentBlocks(messageOf(record));
      const tools = [...toolUseIds(blocks).map((id) => plan.toolFate('tool_use', id)), ...toolResultIds(blocks).map((id) => plan.toolFate('tool_result', id))];
      const kept = tools.length > 0 ? tools.some((fate) => fate?.fate !== 'dropped') : plan.textKept(entry.messageIndex);
      if (!kept) continue;
      preserveUuids.push(uuid);
      let replaced = false;
      const content = blocks.map((block) => {
        const text = block.type === 'tool_result' ? plan.compactedResult(String(block.tool_use_id)) : undefined;
        if (text === undefined) return block;
        replaced = true;
        return { ...block, content: text };
      });
      if (replaced) replaceContent[uuid] = content;
    }
  }
  return ok({ sourcePath: path, ...(end === undefined ? {} : { sourceEnd: end }), summary: plan.summary, preserveUuids, replaceContent, ...plan.meta });
}
