// The adapter-facing builder: Anthropic Messages format (what Claude Code's transcripts rebuild to)
// plus the provider's usage total → engine `Context`. One item per content block, so fates and
// token counts are as fine-grained as what the model actually sees.
import { estimateTokenizer } from './tokens/estimate';
import { attribute, usableCalls, type MeasuredCall, type TokenBasis } from './tokens/attribute';
import { imageTokens } from './tokens/image';
import { scaleToTotal } from './tokens/scale';
import type { Tokenizer } from './tokens/tokenizer';
import type { AnthropicMessage, Context, ContextItem, ItemKind, MessageBlock, Role } from './model';
import { resourceKeyOf } from './resource';
import { categorizeTool } from './toolCategory';
import type { ToolVocabulary } from './tools';

export interface MessagesInput {
  system?: string | MessageBlock[];
  tools?: Record<string, unknown>[];
  messages: AnthropicMessage[];
  /** Exact total from the provider's usage (input + cache tokens); omitted: our own count. */
  usedTokens?: number;
  windowTokens: number;
  /** The agent's working directory, when known. */
  workspace?: string;
  /**
   * The request carried a system prompt and tools that the source did not record. With `usedTokens`,
   * what the messages do not account for is shown as one `unrecorded` head item instead of being
   * spread over the messages.
   */
  headNotRecorded?: boolean;
  /** Per message index: the source records it came from (e.g. transcript uuids). */
  sourceRefs?: (string[] | undefined)[];
  /**
   * The provider's usage of each completed call on this chain: items are then sized from what the
   * calls measured (tokens/attribute.ts) and `usedTokens` is only the fallback when none is usable.
   */
  calls?: readonly MeasuredCall[];
  /**
   * Without a usable call: the sizes a compaction planned this context with (a fork not answered yet).
   * The head not recorded weighs what it was measured at, the messages our estimate at the measured
   * scale, shared so that all sum to `usedTokens`.
   */
  planned?: { headTokens: number; tokenScale: number };
  /**
   * With `headNotRecorded`: what the system prompt and tools weigh alone (measured before the agent's
   * own compaction). The first call after that compaction measured more (files the agent re-attached
   * once); the excess is its own item, which a fork does not send.
   */
  headResent?: number;
  tokenizer?: Tokenizer;
  /** What the agent's tools do (its adapter's vocabulary); without it, tools are placed by name patterns. */
  vocabulary?: ToolVocabulary;
}

/** What the `unrecorded` head item says in the region map and the diff. */
export const UNRECORDED_HEAD_TEXT = '[system prompt and tool definitions: sent with every request, not recorded in this transcript]';

/** Our own summaries and Claude Code's are recognised by text so re-compaction can merge them (S10). */
export const SUMMARY_TAG = 'context-summary';
const SUMMARY_TEXT = new RegExp(`<${SUMMARY_TAG}[\\s>]|^This session is being continued from a previous conversation`);
/** Harness-injected user text that is not something the person typed. */
const REMINDER_TEXT = /^\s*<(system-reminder|local-command-|command-name|command-message|user-prompt-submit-hook|bash-input|bash-stdout|bash-stderr)/;

/**
 * What an adapter knows about a user-side block that its text does not say: `harness` for what the
 * harness sent in a `system`-role message (newer Claude Code versions send reminders that way,
 * untagged), `summary` for the text of a compaction summary record (`isCompactSummary`), which
 * shares its API message with whatever turns were kept after it. Symbol keys never reach JSON or
 * the wire.
 */
const BLOCK_MARKS = {
  harness: Symbol.for('context-lens.harness-block'),
  summary: Symbol.for('context-lens.summary-block'),
  /** Reasoning of which the transcript shows at most a summary (Codex's encrypted reasoning). */
  hidden: Symbol.for('context-lens.hidden-block'),
} as const;
export type BlockMark = keyof typeof BLOCK_MARKS;

export function markBlock<T extends object>(block: T, mark: BlockMark): T {
  Object.defineProperty(block, BLOCK_MARKS[mark], { value: true, enumerable: false });
  return block;
}

export const markHarnessBlock = <T extends object>(block: T): T => markBlock(block, 'harness');

export const hasMark = (block: MessageBlock, mark: BlockMark): boolean => (block as unknown as Record<symbol, unknown>)[BLOCK_MARKS[mark]] === true;

/**
 * A block the tokenizer cannot read (a provider's encrypted item) carries the size its agent
 * measured; it is counted at that size instead of its placeholder text's.
 */
const MEASURED_TOKENS = Symbol.for('context-lens.measured-tokens');

export function withMeasuredTokens<T extends object>(block: T, tokens: number): T {
  Object.defineProperty(block, MEASURED_TOKENS, { value: tokens, enumerable: false });
  return block;
}

const measuredTokensOf = (block: MessageBlock): number | undefined => {
  const tokens = (block as unknown as Record<symbol, unknown>)[MEASURED_TOKENS];
  return typeof tokens === 'number' ? tokens : undefined;
};

function blocksOf(content: string | MessageBlock[]): MessageBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** Text of a tool_result's content, which may be a string or a list of blocks. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: MessageBlock) => (part.type === 'text' && typeof part.text === 'string' ? part.text : `[${part.type}]`)).join('\n');
}

interface Draft {
  kind: ItemKind;
  role: Role;
  text: string;
  block: MessageBlock;
  extra?: Partial<ContextItem>;
  /** Content the transcript does not show (reasoning kept only as a signature or encrypted). */
  hidden?: boolean;
}

/** Images weigh what their pixels do, not their placeholder text. */
function imagesIn(block: MessageBlock): number {
  if (block.type === 'image') return imageTokens(block);
  if (block.type !== 'tool_result' || !Array.isArray(block.content)) return 0;
  return (block.content as MessageBlock[]).reduce((sum, part) => sum + (part?.type === 'image' ? imageTokens(part) : 0), 0);
}

function draftUserBlock(block: MessageBlock): Draft {
  if (block.type === 'tool_result') {
    return {
      kind: 'tool_result',
      role: 'user',
      text: toolResultText(block.content),
      block,
      extra: { toolUseId: String(block.tool_use_id ?? ''), isError: block.is_error === true },
    };
  }
  if (block.type === 'text' && typeof block.text === 'string') {
    const kind: ItemKind =
      hasMark(block, 'summary') || SUMMARY_TEXT.test(block.text)
        ? 'summary'
        : hasMark(block, 'harness') || REMINDER_TEXT.test(block.text)
          ? 'reminder'
          : 'user';
    return { kind, role: 'user', text: block.text, block };
  }
  // Images and documents: a placeholder keeps them visible; their real size comes from scaling.
  return { kind: 'user', role: 'user', text: `[${block.type}]`, block };
}

function draftAssistantBlock(block: MessageBlock, vocabulary: ToolVocabulary | undefined): Draft {
  if (block.type === 'tool_use') {
    const name = String(block.name ?? '');
    const input = (block.input ?? {}) as Record<string, unknown>;
    const category = categorizeTool(name, input, vocabulary);
    return {
      kind: 'tool_use',
      role: 'assistant',
      text: `${name} ${JSON.stringify(input)}`,
      block,
      extra: { toolUseId: String(block.id ?? ''), toolName: name, toolCategory: category, resourceKey: resourceKeyOf(name, category, input) },
    };
  }
  if (block.type === 'thinking' || block.type === 'redacted_thinking') {
    const text = typeof block.thinking === 'string' ? block.thinking : '';
    // Claude Code 2.1 writes thinking as "" plus its signature; the model still receives it.
    return {
      kind: 'thinking',
      role: 'assistant',
      text,
      block,
      ...(text.trim() === '' || block.type === 'redacted_thinking' || hasMark(block, 'hidden') ? { hidden: true } : {}),
    };
  }
  const text = block.type === 'text' && typeof block.text === 'string' ? block.text : JSON.stringify(block);
  return { kind: 'assistant', role: 'assistant', text, block };
}

export function contextFromMessages(input: MessagesInput): Context {
  const tokenizer = input.tokenizer ?? estimateTokenizer;
  const drafts: PlacedDraft[] = [];
  for (const block of input.system === undefined ? [] : blocksOf(input.system)) {
    drafts.push({
      kind: 'system',
      role: 'system',
      text: typeof block.text === 'string' ? block.text : JSON.stringify(block),
      block,
      messageIndex: -1,
      turn: 0,
    });
  }
  for (const tool of input.tools ?? []) {
    drafts.push({ kind: 'tools', role: 'system', text: JSON.stringify(tool), block: tool as MessageBlock, messageIndex: -1, turn: 0 });
  }

  const toolUses = new Map<string, Partial<ContextItem>>();
  let turn = 0;
  input.messages.forEach((message, messageIndex) => {
    const blocks = blocksOf(message.content);
    const messageDrafts = message.role === 'user' ? blocks.map(draftUserBlock) : blocks.map((block) => draftAssistantBlock(block, input.vocabulary));
    // A turn starts where the person speaks; tool results and harness reminders continue the turn.
    if (messageDrafts.some((draft) => draft.kind === 'user')) turn += 1;
    for (const draft of messageDrafts) {
      if (draft.kind === 'tool_use' && draft.extra?.toolUseId) toolUses.set(draft.extra.toolUseId, draft.extra);
      if (draft.kind === 'tool_result') {
        // Results inherit what their call touched: the call's input is where the resource is named.
        const use = toolUses.get(draft.extra?.toolUseId ?? '');
        if (use) draft.extra = { ...draft.extra, toolName: use.toolName, toolCategory: use.toolCategory, resourceKey: use.resourceKey };
      }
      drafts.push({ ...draft, messageIndex, turn, sourceRef: input.sourceRefs?.[messageIndex] });
    }
  });

  // The calls attribute() will use (a response must be among the items it is given).
  const calls = usableCalls(
    input.calls ?? [],
    drafts.reduce((count, draft) => Math.max(count, draft.messageIndex + 1), 0),
  );
  // Hidden reasoning has no size of its own to estimate: its response's output says what it weighs.
  const raw = drafts.map((draft) =>
    draft.hidden && calls.length > 0 ? 0 : (measuredTokensOf(draft.block) ?? tokenizer.count(draft.text) + imagesIn(draft.block)),
  );
  const measured = calls.length > 0 ? measure(drafts, raw, calls, input.headNotRecorded === true) : null;
  let counts: number[];
  let scale: number;
  if (measured !== null) {
    ({ counts, scale } = measured);
    if (input.headNotRecorded === true && input.headResent !== undefined) splitReattached(drafts, measured, input.headResent);
  } else {
    // No call measured this chain: the exact total (if any) is shared out by estimate.
    const planned = input.planned;
    if (planned !== undefined) ({ counts, scale } = plannedCounts(drafts, raw, planned, input.headNotRecorded === true, input.usedTokens));
    else {
      const unrecorded = input.headNotRecorded === true && input.usedTokens !== undefined ? input.usedTokens - raw.reduce((sum, count) => sum + count, 0) : 0;
      if (unrecorded > 0) {
        drafts.unshift({ ...UNRECORDED_DRAFT });
        raw.unshift(unrecorded);
      }
      ({ counts, scale } = scaleToTotal(raw, input.usedTokens));
    }
  }
  const items: ContextItem[] = drafts.map((draft, id) => ({
    id,
    kind: draft.kind,
    role: draft.role,
    turn: draft.turn,
    messageIndex: draft.messageIndex,
    text: draft.text,
    tokens: counts[id] ?? 0,
    block: draft.block,
    ...draft.extra,
    ...(draft.sourceRef ? { sourceRef: draft.sourceRef } : {}),
    ...(measured ? { basis: measured.basis[id] ?? 'estimated' } : { basis: 'estimated' as const }),
    ...(measured?.apiDropped[id] ? { apiDropped: measured.apiDropped[id] } : {}),
  }));
  const total = counts.reduce((sum, value) => sum + value, 0);
  const usedTokens = measured !== null ? total : (input.usedTokens ?? total);
  const exact = measured !== null || input.usedTokens !== undefined;
  return {
    items,
    windowTokens: input.windowTokens,
    usedTokens,
    usedSource: exact ? 'usage' : 'estimate',
    tokenScale: scale,
    ...(measured ? { measuredTokens: measured.measuredTokens, calls: measured.calls } : {}),
    ...(input.workspace ? { workspace: input.workspace } : {}),
  };
}

type PlacedDraft = Draft & { messageIndex: number; turn: number; sourceRef?: string[] };

/** What the part of the head the agent sent once says in the region map and the diff. */
export const REATTACHED_TEXT =
  '[files and context the agent re-attached to its first call after its own compaction: sent once, not recorded; a fork does not send them]';

/** Below this, the difference is the two measurements' noise, not re-attached content. */
const REATTACHED_MIN_TOKENS = 500;

/**
 * The unrecorded head measured by the first call after the agent's compaction holds what it
 * re-attached then: the head keeps what the system prompt and tools weighed before, the rest
 * becomes its own item right after it.
 */
function splitReattached(drafts: PlacedDraft[], measured: { counts: number[]; basis: TokenBasis[]; apiDropped: number[] }, headResent: number): void {
  const at = drafts.findIndex((draft) => draft.extra?.unrecorded === true);
  const head = measured.counts[at];
  if (at === -1 || head === undefined || head - headResent < REATTACHED_MIN_TOKENS) return;
  drafts.splice(at + 1, 0, { ...UNRECORDED_DRAFT, text: REATTACHED_TEXT, extra: { unrecorded: true, reattached: true } });
  measured.counts.splice(at, 1, Math.max(0, Math.round(headResent)), head - Math.max(0, Math.round(headResent)));
  measured.basis.splice(at + 1, 0, measured.basis[at] ?? 'measured');
  measured.apiDropped.splice(at + 1, 0, 0);
}

const UNRECORDED_DRAFT: PlacedDraft = {
  kind: 'system',
  role: 'system',
  text: UNRECORDED_HEAD_TEXT,
  block: { type: 'text', text: '' },
  messageIndex: -1,
  turn: 0,
  extra: { unrecorded: true },
};

/**
 * A context its compaction sized (a fork before its first call): the head (system prompt and tools,
 * recorded or not) at what the calls had measured, each message item at our estimate times the
 * measured scale, the messages then shared so the whole is `usedTokens` (what the compaction
 * counted, plus what was written since).
 */
function plannedCounts(
  drafts: PlacedDraft[],
  raw: number[],
  planned: { headTokens: number; tokenScale: number },
  headNotRecorded: boolean,
  usedTokens: number | undefined,
): { counts: number[]; scale: number } {
  if (headNotRecorded && planned.headTokens > 0 && !drafts.some((draft) => draft.messageIndex < 0)) {
    drafts.unshift({ ...UNRECORDED_DRAFT });
    raw.unshift(0);
  }
  const head = drafts.flatMap((draft, index) => (draft.messageIndex < 0 ? [index] : []));
  const scaled = raw.map((count) => Math.round(count * planned.tokenScale));
  if (head.length === 0 || planned.headTokens <= 0)
    return { counts: usedTokens === undefined ? scaled : scaleToTotal(scaled, usedTokens).counts, scale: planned.tokenScale };
  const headRaw = head.map((index) => raw[index] ?? 0);
  // A head with no text of its own (the unrecorded item) takes the whole measured size.
  const headCounts = headRaw.some((count) => count > 0)
    ? scaleToTotal(headRaw, planned.headTokens).counts
    : head.map((_, position) => (position === 0 ? planned.headTokens : 0));
  const rest = scaled.flatMap((count, index) => (drafts[index]?.messageIndex === undefined || (drafts[index] as PlacedDraft).messageIndex < 0 ? [] : [count]));
  const messages = usedTokens === undefined ? rest : scaleToTotal(rest, Math.max(0, usedTokens - planned.headTokens)).counts;
  let h = 0;
  let m = 0;
  const counts = drafts.map((draft) => (draft.messageIndex < 0 ? (headCounts[h++] ?? 0) : (messages[m++] ?? 0)));
  return { counts, scale: planned.tokenScale };
}

/**
 * Sizes items from the calls' usage (tokens/attribute.ts). A head nobody recorded becomes its own
 * item, sized by the first call. `scale` is how many provider tokens one of ours came to on what was
 * measured, so text the engine writes later is counted in the same units.
 */
function measure(
  drafts: PlacedDraft[],
  raw: number[],
  calls: readonly MeasuredCall[],
  headNotRecorded: boolean,
): { counts: number[]; scale: number; basis: TokenBasis[]; apiDropped: number[]; measuredTokens: number; calls: MeasuredCall[] } {
  if (headNotRecorded) {
    drafts.unshift({ ...UNRECORDED_DRAFT });
    raw.unshift(0);
  }
  const result = attribute(
    drafts.map((draft, index) => ({
      messageIndex: draft.messageIndex,
      role: draft.role,
      kind: draft.kind,
      estimate: raw[index] ?? 0,
      ...(draft.hidden ? { hidden: true } : {}),
      ...(draft.extra?.unrecorded ? { unrecordedHead: true } : {}),
    })),
    calls,
  );
  // Calibrated on message items measured alone (the head's texts may be placeholders), else on every
  // measured message item.
  const ratio = (wanted: (basis: TokenBasis | undefined) => boolean): [number, number] => {
    let ours = 0;
    let theirs = 0;
    drafts.forEach((draft, index) => {
      if (draft.messageIndex < 0 || draft.hidden || !wanted(result.basis[index])) return;
      ours += raw[index] ?? 0;
      theirs += result.tokens[index] ?? 0;
    });
    return [ours, theirs];
  };
  let [measuredRaw, measuredTokens] = ratio((basis) => basis === 'measured');
  if (measuredRaw === 0) [measuredRaw, measuredTokens] = ratio((basis) => basis !== 'estimated');
  const scale = measuredRaw > 0 && measuredTokens > 0 ? measuredTokens / measuredRaw : 1;
  return { counts: result.tokens, scale, basis: result.basis, apiDropped: result.apiDropped, measuredTokens: result.measuredTokens, calls: result.calls };
}
