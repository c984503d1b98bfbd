// What the person decided in the panel, for the live proxy's next request: the window and trigger
// the gauge shows, the engine's knobs (target, focus, pinned sentences, tiers) and the tool results
// to keep whole or to drop. The extension host hands them to the proxy it runs. Keep and drop name
// tool results by their tool_use id, which is the same in the agent's transcript and its requests.
import { toolResultText, type EngineOptionsInput, type MessageBlock } from '../engine';
import { archiveOriginal, refOf, stubWithRef } from './recall';
import type { SessionState, StickyEdit } from './session';

export interface LiveInstructions {
  windowTokens?: number;
  triggerPercent?: number;
  /** Replaces the proxy's engine options (summarising stays off unless these enable it). */
  engine?: EngineOptionsInput;
  /** Tool results never to edit; an earlier edit of one is undone. */
  keep?: readonly string[];
  /** Tool results to replace with a stub from the next request on, whatever the trigger. */
  drop?: readonly string[];
}

interface Message {
  role: string;
  content?: string | MessageBlock[];
}

/** Only text can be stubbed and archived; an output with an image stays whole. */
export function textOnly(block: MessageBlock | undefined): boolean {
  const content = block?.content;
  return typeof content === 'string' || (Array.isArray(content) && content.every((part: MessageBlock) => part.type === 'text'));
}

/**
 * Undoes the session's edits the person took back, so those originals go again (one cache rewrite):
 * any edit of a tool result they keep, and a drop of theirs they no longer ask for. Returns the ids.
 */
export function restoreTakenBack(session: SessionState, keep: ReadonlySet<string>, drop: ReadonlySet<string>): string[] {
  const restored = [...session.edits.values()]
    .filter((edit) => keep.has(edit.toolUseId) || (edit.tier === 'choice' && !drop.has(edit.toolUseId)))
    .map((edit) => edit.toolUseId);
  for (const id of restored) session.edits.delete(id);
  return restored;
}

/** "Read /p/a.ts", "Bash `npm test`": what a stub says it replaced. */
function callLabel(messages: readonly Message[], toolUseId: string): string {
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const call = message.content.find((block) => block.type === 'tool_use' && block.id === toolUseId);
    if (!call) continue;
    const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
    const target = ([input.file_path, input.path, input.command].find((value): value is string => typeof value === 'string') ?? '').split('\n')[0] ?? '';
    return `${String(call.name ?? 'tool')} ${target.length > 120 ? `${target.slice(0, 119)}…` : target}`.trim();
  }
  return 'tool';
}

/** A drop of the person's that this request carries and the session has not stubbed yet: only then are its messages read. */
export function hasNewDrops(results: readonly { toolUseId: string }[], session: SessionState, drop: ReadonlySet<string>): boolean {
  return drop.size > 0 && results.some((result) => drop.has(result.toolUseId) && !session.edits.has(result.toolUseId));
}

/**
 * Stubs for the person's drops found in this request and not edited yet. Each original is archived
 * first (what cannot be archived stays whole) and the stub joins the session's sticky edits.
 */
export function dropEdits(messages: readonly Message[], session: SessionState, drop: ReadonlySet<string>, recallDir: string): StickyEdit[] {
  const edits: StickyEdit[] = [];
  if (drop.size === 0) return edits;
  for (const message of messages) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      const id = block.type === 'tool_result' ? String(block.tool_use_id) : '';
      if (!drop.has(id) || session.edits.has(id) || !textOnly(block)) continue;
      const original = toolResultText(block.content);
      const ref = refOf(id, original);
      if (!archiveOriginal(recallDir, ref, original).ok) continue;
      const text = stubWithRef(`[DROPPED] ${callLabel(messages, id)} output, left out of the context by the person's choice.`, ref);
      const before = Buffer.byteLength(JSON.stringify(block.content ?? ''));
      const after = Buffer.byteLength(JSON.stringify(text));
      const edit: StickyEdit = {
        toolUseId: id,
        tier: 'choice',
        text,
        ref,
        tokensBefore: Math.round(before * session.tokensPerByte),
        tokensAfter: Math.round(after * session.tokensPerByte),
      };
      session.edits.set(id, edit);
      edits.push(edit);
    }
  }
  return edits;
}
