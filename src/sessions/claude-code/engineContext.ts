// A compaction result as the Claude Code fork that applies it (the way in is ../engineContext.ts). The engine decides per content block; Claude
// Code stores blocks in records, so each record is kept, dropped or kept with its compacted tool
// results, and what the engine wrote itself (summary, re-injected constraints) becomes the fork's
// compact-summary record.
// Module by module, not the engine's index: `inspect` loads only what it needs.
import { afterTexts } from '../../engine/afterTexts';
import type { ContextItem } from '../../engine/model';
import type { ItemFate } from '../../engine/result';
import { IN_PLACE_NOTE } from '../common/forkTexts';
import { fail, failFromError, ok } from '../result';
import type { ForkInput } from '../port';
import type { ContentBlock, Result } from '../types';
import type { ForkRequest } from './fork';
import { readForward } from './jsonl';
import { contentBlocks, messageOf, toolResultIds, toolUseIds, uuidOf, type RawRecord } from './records';

export async function forkRequestFromResult(input: ForkInput): Promise<Result<Omit<ForkRequest, 'now' | 'newUuid'>>> {
  const { live, context, result } = input;
  const path = live.session.path;
  if (result.status !== 'compacted') return fail('invalid-input', `Nothing to apply: ${result.message}`, path);
  const aligned = afterTexts(result);
  if (aligned === null) return fail('invalid-input', 'The compaction result does not line up with its context', path);

  let records: Map<string, RawRecord>;
  try {
    records = new Map((await readForward(path)).records.map(({ record }) => [uuidOf(record) ?? '', record]));
  } catch (error) {
    return failFromError(error, path);
  }
  // Tool blocks are followed by id (a record may hold one of several blocks of a message); other
  // blocks by message: a record survives when anything of its message that is not a tool block does.
  const toolFates = new Map<string, { fate: ItemFate; item: ContextItem }>();
  const textKept = new Set<number>();
  for (const fate of result.items) {
    const item = context.items[fate.id];
    if (item === undefined || item.messageIndex < 0) continue;
    if (item.toolUseId && (item.kind === 'tool_use' || item.kind === 'tool_result')) toolFates.set(`${item.kind}:${item.toolUseId}`, { fate, item });
    else if (fate.fate !== 'dropped') textKept.add(item.messageIndex);
  }

  const preserveUuids: string[] = [];
  const replaceContent: Record<string, ContentBlock[]> = {};
  for (const entry of live.entries) {
    for (const uuid of entry.uuids) {
      const record = records.get(uuid);
      if (record === undefined) return fail('invalid-input', `Record ${uuid} of the live context is not in ${path}`, path);
      const blocks = contentBlocks(messageOf(record));
      const tools = [...toolUseIds(blocks).map((id) => toolFates.get(`tool_use:${id}`)), ...toolResultIds(blocks).map((id) => toolFates.get(`tool_result:${id}`))];
      const kept = tools.length > 0 ? tools.some((tool) => tool?.fate.fate !== 'dropped') : textKept.has(entry.messageIndex);
      if (!kept) continue;
      preserveUuids.push(uuid);
      let replaced = false;
      const content = blocks.map((block) => {
        const tool = block.type === 'tool_result' ? toolFates.get(`tool_result:${String(block.tool_use_id)}`) : undefined;
        const text = tool?.fate.fate === 'compacted' ? aligned.compacted.get(tool.fate.id) : undefined;
        if (text === undefined) return block;
        replaced = true;
        return { ...block, content: text };
      });
      if (replaced) replaceContent[uuid] = content;
    }
  }
  return ok({
    sourcePath: path,
    summary: aligned.written.length > 0 ? aligned.written.join('\n\n') : IN_PLACE_NOTE,
    preserveUuids,
    replaceContent,
    focus: input.focus ?? null,
    preTokens: result.metrics.tokensBefore,
    postTokens: result.metrics.tokensAfter,
    ...(input.title !== undefined ? { title: input.title } : {}),
  });
}

