// Per-item tokens from the provider's own per-call usage. Every completed call reports the prompt it
// sent and the output it produced; between two calls the prompt grows by exactly the previous
// response plus what was written after it (tool results, the next prompt, reminders). So each
// response weighs its `output` and each step weighs `prompt(k+1) − prompt(k) − output(k)`: exact.
// Our own estimate only splits a measured amount among the items that share it, and sizes what no
// call has measured yet (the pending tail). The system prompt and tools are what the first call's
// prompt holds beyond its messages, never more than that prompt.
import type { ItemKind } from '../model';

/** A completed call on the live chain: its response is the assistant items of messages `from`…`to`. */
export interface MeasuredCall {
  /** First message index of the response; the prompt held every message before it. */
  from: number;
  /** Last message index of the response (equal to `from` unless the response spans messages). */
  to: number;
  /** What the call sent: input + cache write + cache read. */
  promptTokens: number;
  outputTokens: number;
}

/** How an item's count was obtained: alone in a measured step, one of several sharing one, or no call measured it. */
export type TokenBasis = 'measured' | 'split' | 'estimated';

export interface AttributionItem {
  /** -1 for the system prompt and tool definitions. */
  messageIndex: number;
  role: 'system' | 'user' | 'assistant';
  kind: ItemKind;
  /** Our estimate of its size; for hidden content (thinking shown empty), 0. */
  estimate: number;
  /** Content the transcript does not show (hidden or encrypted reasoning): sized by what its response left over. */
  hidden?: boolean;
  /** The head item standing for a system prompt and tools nobody recorded: sized by the first call. */
  unrecordedHead?: boolean;
}

export interface Attribution {
  tokens: number[];
  basis: TokenBasis[];
  /** Tokens the API stopped counting for an item (a later prompt shrank: earlier thinking dropped, old results cleared). */
  apiDropped: number[];
  /** Sum of what the calls measured (through the last response); the rest of the total is estimated. */
  measuredTokens: number;
  /** The calls used, in order (overlapping, out-of-order or empty ones dropped). */
  calls: MeasuredCall[];
}

/** Calls that can be used: a prompt, responses in message order. Responses written as one message are merged. */
export function usableCalls(calls: readonly MeasuredCall[], messageCount: number): MeasuredCall[] {
  const usable: MeasuredCall[] = [];
  for (const call of calls) {
    if (!(call.promptTokens > 0) || call.from < 0 || call.from >= messageCount || call.to < call.from) continue;
    const previous = usable.at(-1);
    if (previous !== undefined && call.from <= previous.to) {
      // The same response message again (a response continued in a second call): one response whose
      // size is what both calls added.
      if (call.from !== previous.from || call.promptTokens < previous.promptTokens) continue;
      previous.outputTokens = Math.max(0, call.promptTokens - previous.promptTokens) + Math.max(0, call.outputTokens);
      previous.to = Math.max(previous.to, call.to);
      continue;
    }
    usable.push({ ...call, outputTokens: Math.max(0, call.outputTokens) });
  }
  return usable;
}

/**
 * Attributes the calls' measurements to items. Without a usable call everything is estimated and,
 * when `fallbackTotal` is given (an exact total with no per-call detail), scaled to it.
 */
export function attribute(items: readonly AttributionItem[], calls: readonly MeasuredCall[], fallbackTotal?: number): Attribution {
  const messageCount = items.reduce((max, item) => Math.max(max, item.messageIndex + 1), 0);
  const used = usableCalls(calls, messageCount);
  const tokens = items.map((item) => (item.unrecordedHead ? 0 : item.estimate));
  const basis: TokenBasis[] = items.map(() => 'estimated');
  const apiDropped = items.map(() => 0);
  if (used.length === 0) {
    if (fallbackTotal !== undefined && fallbackTotal > 0)
      spread(
        items.map((_, index) => index),
        fallbackTotal,
        tokens,
        basis,
        'split',
      );
    return { tokens, basis, apiDropped, measuredTokens: 0, calls: used };
  }
  // Which segment each item belongs to: the prefix before the first call, a response, or the step after one.
  const prefix: number[] = [];
  const responses: number[][] = used.map(() => []);
  const steps: number[][] = used.map(() => []);
  let call = -1;
  items.forEach((item, index) => {
    while (call + 1 < used.length && item.messageIndex >= (used[call + 1] as MeasuredCall).from) call += 1;
    if (call < 0) prefix.push(index);
    else if (item.role === 'assistant' && item.messageIndex <= (used[call] as MeasuredCall).to) (responses[call] as number[]).push(index);
    else (steps[call] as number[]).push(index);
  });

  const first = used[0] as MeasuredCall;
  // The head nobody recorded is what the first prompt holds beyond its messages: never more.
  const head = prefix.find((index) => items[index]?.unrecordedHead);
  if (head !== undefined) {
    const messages = prefix.reduce((sum, index) => sum + (index === head ? 0 : (items[index] as AttributionItem).estimate), 0);
    tokens[head] = Math.max(0, first.promptTokens - messages);
  }
  spread(prefix, first.promptTokens, tokens, basis, 'measured');

  let running = first.promptTokens;
  // Everything measured so far: where a shrinking prompt's difference can have come from.
  const earlier = new TakeBackOrder(items);
  earlier.add(prefix);
  used.forEach((measured, k) => {
    const response = responses[k] as number[];
    spreadResponse(response, measured.outputTokens, items, tokens, basis);
    earlier.add(response);
    running += measured.outputTokens;
    const next = used[k + 1];
    const step = steps[k] as number[];
    if (next === undefined) return; // The pending tail: nothing measured it yet.
    const added = next.promptTokens - running;
    if (added >= 0) {
      earlier.add(step);
      if (step.length > 0) spread(step, added, tokens, basis, 'measured');
      // Nothing written between two calls, yet the prompt grew: the response weighs more as input.
      else if (response.length > 0) spread(response, sumOf(response, tokens) + added, tokens, basis, 'measured');
    } else {
      // The prompt grew by less than the step's own content: the API stopped counting something
      // earlier (thinking of earlier turns, cleared tool results). The step keeps its estimate and
      // the difference is taken from the earlier items it most likely came from.
      earlier.add(step);
      earlier.take(sumOf(step, tokens) - added, tokens, apiDropped);
      // Still a share of what this call measured: the prompt's total stays exact.
      for (const index of step) basis[index] = 'split';
    }
    running = next.promptTokens;
  });
  return { tokens, basis, apiDropped, measuredTokens: running, calls: used };
}

function sumOf(indexes: readonly number[], tokens: readonly number[]): number {
  return indexes.reduce((sum, index) => sum + (tokens[index] ?? 0), 0);
}

/**
 * Shares `total` among `indexes` in proportion to what they hold so far (their estimates until a
 * call sized them; the head its remainder), or `equally`, rounding by largest remainder so the
 * shares sum to `total` exactly.
 */
function spread(indexes: readonly number[], total: number, tokens: number[], basis: TokenBasis[], alone: TokenBasis, equally = false): void {
  if (indexes.length === 0) return;
  const weights = indexes.map((index) => (equally ? 1 : (tokens[index] ?? 0)));
  const shares = shareOut(weights, Math.max(0, Math.round(total)));
  indexes.forEach((index, position) => {
    tokens[index] = shares[position] as number;
    basis[index] = indexes.length === 1 ? alone : 'split';
  });
}

/**
 * A response weighs its output exactly. Hidden reasoning (an empty thinking block with only its
 * signature, encrypted reasoning) is what the output holds beyond the visible blocks' estimate.
 */
function spreadResponse(indexes: readonly number[], output: number, items: readonly AttributionItem[], tokens: number[], basis: TokenBasis[]): void {
  const hidden = indexes.filter((index) => items[index]?.hidden);
  const visible = indexes.filter((index) => !items[index]?.hidden);
  const visibleEstimate = visible.reduce((sum, index) => sum + (items[index] as AttributionItem).estimate, 0);
  if (hidden.length === 0 || visibleEstimate >= output) {
    spread(indexes, output, tokens, basis, 'measured');
    return;
  }
  spread(hidden, output - visibleEstimate, tokens, basis, 'split', true);
  for (const index of visible) {
    tokens[index] = (items[index] as AttributionItem).estimate;
    basis[index] = 'split';
  }
}

/**
 * Where a shrinking prompt's difference is taken back from, each item noting what it lost: thinking
 * first (the API drops earlier turns' reasoning), then tool results (context editing clears the
 * oldest), then any other message item, each kind oldest first; the head (system prompt and tools) only when no message item has any left (tools taken away mid-session). One
 * queue per kind with a cursor past the emptied items, so a session whose every step shrinks costs
 * each item once, not a sort of everything per step.
 */
class TakeBackOrder {
  private readonly queues: number[][] = [[], [], [], []];
  private readonly cursors = [0, 0, 0, 0];

  constructor(private readonly items: readonly AttributionItem[]) {}

  add(indexes: readonly number[]): void {
    for (const index of indexes) {
      const item = this.items[index] as AttributionItem;
      (this.queues[item.messageIndex < 0 ? 3 : item.kind === 'thinking' ? 0 : item.kind === 'tool_result' ? 1 : 2] as number[]).push(index);
    }
  }

  take(amount: number, tokens: number[], apiDropped: number[]): void {
    let left = Math.round(amount);
    this.queues.forEach((queue, rank) => {
      while (left > 0 && (this.cursors[rank] as number) < queue.length) {
        const index = queue[this.cursors[rank] as number] as number;
        const taken = Math.min(left, tokens[index] ?? 0);
        tokens[index] = (tokens[index] ?? 0) - taken;
        apiDropped[index] = (apiDropped[index] ?? 0) + taken;
        left -= taken;
        if (tokens[index] === 0) this.cursors[rank] = (this.cursors[rank] as number) + 1;
      }
    });
  }
}

/** Integer shares of `total` proportional to `weights` (equal when all are 0), summing to `total`. */
export function shareOut(weights: readonly number[], total: number): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((acc, weight) => acc + Math.max(0, weight), 0);
  const exact = weights.map((weight) => (sum > 0 ? (Math.max(0, weight) / sum) * total : total / weights.length));
  const shares = exact.map(Math.floor);
  let missing = total - shares.reduce((acc, share) => acc + share, 0);
  const order = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (missing <= 0) break;
    shares[index] = (shares[index] as number) + 1;
    missing -= 1;
  }
  return shares;
}
