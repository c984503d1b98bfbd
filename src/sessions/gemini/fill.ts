// Exact context fill from the Gemini CLI's own counts. Each gemini message carries the usage of
// the call that produced it (`tokens`, the API's usageMetadata): `input` is the whole prompt that
// call sent, `cached` included — the CLI compares the same number with its compression point. So
// the fill is the newest live gemini message's `tokens.input`; its answer (`output`) joins the next
// request, and what was written after it (its calls' results, a new prompt) is estimated.
// After a compression the kept messages still carry counts of the longer history: until a call is
// recorded after the compression, the fill is our estimate of what is live.
import { charEstimateTokenizer } from '../../engine';
import type { FillSnapshot, UsageBreakdown } from '../types';
import type { Conversation, PlacedMessage } from './conversation';
import { isForkSummary, isSummary, jsonText, modelOf, obj, partsOf, tokensOf, type GeminiTokens, type MessageRecord } from './records';
import { responseIdsOfUserMessages } from './messages';
import { compressionPoint, geminiTokenLimit } from './window';

export interface GeminiFillOptions {
  /** Context window override in tokens (the contextLens.window setting); 0 = the model's. */
  windowOverride?: number;
  /** `model.compressionThreshold` from the settings (see window.ts); null or absent = the default. */
  compressionThreshold?: number | null;
}

/** Gemini reports no cache writes: `cached` is what was read from the cache, inside `input`. */
export function usageBreakdownOf(tokens: GeminiTokens): UsageBreakdown {
  // Thoughts are billed as output; candidatesTokenCount leaves them out.
  return {
    inputTokens: tokens.input - tokens.cached,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: tokens.cached,
    outputTokens: tokens.output + tokens.thoughts,
  };
}

/**
 * Four characters a token, as the engine estimates before its exact count: the message's parts and
 * calls, and the results stored on its calls unless a user message carries them (`sentAsUser`).
 */
export function estimateMessageTokens(message: MessageRecord, sentAsUser: ReadonlySet<string>, part: 'all' | 'results' = 'all'): number {
  const texts: string[] = [];
  if (part === 'all') {
    for (const piece of partsOf(message.content)) texts.push(typeof piece.text === 'string' ? piece.text : jsonText(piece));
  }
  for (const value of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
    const call = obj(value);
    if (part === 'all') texts.push(`${typeof call?.name === 'string' ? call.name : ''} ${jsonText(call?.args ?? {})}`);
    const sent = typeof call?.id === 'string' && sentAsUser.has(call.id);
    if (call?.result !== undefined && !sent) texts.push(typeof call.result === 'string' ? call.result : jsonText(call.result));
  }
  return charEstimateTokenizer.count(texts.join('\n'));
}

/** The usage anchor: the newest live gemini message with counts written after `compactedAt`. */
export function usageAnchor(live: readonly PlacedMessage[], compactedAt: number | null): { placed: PlacedMessage; index: number; tokens: GeminiTokens } | null {
  for (let index = live.length - 1; index >= 0; index--) {
    const placed = live[index] as PlacedMessage;
    const tokens = tokensOf(placed.message);
    if (tokens === null) continue;
    if (compactedAt !== null && placed.offset <= compactedAt) return null;
    return { placed, index, tokens };
  }
  return null;
}

/**
 * The fork Context Lens wrote, while no call answered in it: its mark's count and where the messages
 * it counted end. Null for any other chat, a fork written before the mark named its last message, or
 * one the CLI compressed since (its own summary then opens the history).
 */
export function unansweredFork(conversation: Conversation, live: readonly PlacedMessage[]): { postTokens: number; index: number } | null {
  const mark = conversation.forkOf;
  if (mark === null || mark.postTokens === null || mark.lastId === null) return null;
  if (live.some((placed) => tokensOf(placed.message) !== null)) return null;
  const opening = live.find((placed) => isSummary(placed.message));
  if (opening === undefined || !isForkSummary(opening.message)) return null;
  const index = live.findIndex((placed) => placed.message.id === mark.lastId);
  return index === -1 ? null : { postTokens: mark.postTokens, index };
}

/** The model of the newest live gemini message that names one. */
export function liveModel(live: readonly PlacedMessage[]): string | null {
  for (let index = live.length - 1; index >= 0; index--) {
    const model = modelOf((live[index] as PlacedMessage).message);
    if (model !== null) return model;
  }
  return null;
}

/**
 * The fill of a conversation. `compactedAt`: offset of the record that brought in the newest
 * compression (null: none); `everCounted`: some call was counted before it.
 */
export function fillOf(conversation: Conversation, compactedAt: number | null, everCounted: boolean, options: GeminiFillOptions = {}): FillSnapshot {
  const live = conversation.list();
  const model = liveModel(live);
  const override = options.windowOverride !== undefined && options.windowOverride > 0 ? options.windowOverride : null;
  const base = {
    windowTokens: override ?? geminiTokenLimit(model),
    windowSource: override !== null ? ('override' as const) : model !== null ? ('model' as const) : ('default' as const),
    agentAutoCompactTokens: compressionPoint(model, options.compressionThreshold ?? null),
    model,
  };
  const anchor = usageAnchor(live, compactedAt);
  const sentAsUser = responseIdsOfUserMessages(live);
  const estimate = (from: number): number => live.slice(from).reduce((sum, placed) => sum + estimateMessageTokens(placed.message, sentAsUser), 0);
  const fork = anchor === null ? unansweredFork(conversation, live) : null;
  if (fork !== null) {
    // A fork no call answered yet: what its compaction counted up to the last message it wrote, and
    // the estimate of what was written since (a new prompt), as Claude Code's forks read.
    const last = live[fork.index] as PlacedMessage;
    return {
      ...base,
      usedTokens: fork.postTokens,
      source: 'estimate',
      timestamp: null,
      outputTokensPending: 0,
      pendingTokens: estimate(fork.index + 1),
      usage: null,
      accountedThrough: { uuid: last.message.id, endOffset: last.end },
      compactedSinceUsage: false,
    };
  }
  if (anchor === null) {
    return {
      ...base,
      usedTokens: 0,
      source: 'estimate',
      timestamp: null,
      outputTokensPending: 0,
      pendingTokens: estimate(0),
      usage: null,
      accountedThrough: { uuid: null, endOffset: 0 },
      compactedSinceUsage: compactedAt !== null && everCounted,
    };
  }
  const { placed, tokens } = anchor;
  return {
    ...base,
    usedTokens: tokens.input,
    source: 'usage',
    timestamp: typeof placed.message.timestamp === 'string' ? placed.message.timestamp : null,
    outputTokensPending: tokens.output,
    // The anchor's own calls' results are stored on it but were sent after it: they join the next request.
    pendingTokens: estimateMessageTokens(placed.message, sentAsUser, 'results') + estimate(anchor.index + 1),
    usage: usageBreakdownOf(tokens),
    accountedThrough: { uuid: placed.message.id, endOffset: placed.end },
    compactedSinceUsage: false,
  };
}
