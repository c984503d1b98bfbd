// The live edit of one Messages request: below the trigger the agent's bytes go upstream as they
// came; above it the engine's gentle tiers (supersede → stubs, age-clearing, dedupe, truncation) run
// on the request in a batch, and every edit ever made in the session is applied again, identically,
// to every later request, so the provider's prompt cache keeps its prefix between batches. Anything
// unexpected (a shape we do not know, an error) sends the original bytes (fail open).
// The edits are spliced into the agent's own bytes (scan.ts); the request is parsed only for a batch.
import { compact, contextFromMessages, estimateTokenizer, toolResultText, type EngineOptionsInput } from '../engine';
import { EVERY_AGENTS_TOOLS } from '../sessions/agents';
import { callRates, indexPrices, type PriceIndex, BUNDLED_PRICES } from '../pricing';
import { compactCostAt } from '../sessions/costReport';
import type { Result } from '../sessions/types';
import { hasCompactionRequests, takeCompactionRequests, type CompactionRequest } from './control';
import { EDIT_TIERS, type BatchBreakEven, type ProxyAction, type ProxyEdit, type ProxyUsage } from './events';
import { dropEdits, hasNewDrops, restoreTakenBack, textOnly, type LiveInstructions } from './instructions';
import { PanelInstructionsReader } from './panelInstructions';
import { archiveOriginal, refOf, sessionRecallDir, stubWithRef } from './recall';
import { FORMATS, type EngineRequest, type FormatName } from './formats';
import { spliceEdits } from './scan';
import { applyEdits, engineMessages, type WireMessage } from './wire';
import { editsChanged, recordCall, SessionStore, sessionKeyOf, type SentRequest, type SessionState, type StickyEdit } from './session';

export interface LiveOptions {
  /** The model's context window in tokens. */
  windowTokens: number;
  /** A batch runs once what we send would exceed this share of the window. */
  triggerPercent: number;
  /**
   * Engine options for a batch (tiers, caps); summarising stays off unless enabled here. The target
   * defaults to 80 % of the trigger (60 % of the window at the default 75 %).
   */
  engine: EngineOptionsInput;
  /** A batch is only sent when it saves at least this many tokens: smaller ones cost more cache than they save. */
  minBatchTokens: number;
  /**
   * The time the proxy means to add to a request; one that took longer says so in its reason. The
   * edit is synchronous work, so by the time it is late the time is spent: its edits are sent all
   * the same (holding them back saved nothing, sent a bigger request, and lost a person's drop on
   * the last request of a session).
   */
  budgetMs: number;
  /** What a batch's break-even is priced at; the bundled prices when absent. */
  prices?: PriceIndex;
}

export const DEFAULT_LIVE_OPTIONS: LiveOptions = {
  windowTokens: 200_000,
  // Below Claude Code's own auto-compact point (about 78.5 % of 200k), so ours acts first.
  triggerPercent: 75,
  engine: {},
  minBatchTokens: 2_000,
  budgetMs: 50,
};

export interface LiveDirs {
  /** Where stubbed originals are archived for `recall`. */
  recall: string;
  /** Where `compact_context` leaves its requests. */
  requests: string;
  /** Where the panel leaves its say about each agent session (panelInstructions.ts). */
  panel: string;
}

/** The options, keeps and drops that hold for one request's agent session. */
interface Said {
  options: LiveOptions;
  keep: ReadonlySet<string>;
  drop: ReadonlySet<string>;
  /** Why the panel's say was not applied (the request's tool calls are in several sessions), for the event. */
  note?: string;
}

/** What to send and what to record about it. */
export interface Rewrite {
  action: Exclude<ProxyAction, 'passthrough'>;
  reason: string | null;
  /**
   * The bytes to send upstream, in order: `[raw]` unless `changed`, else views of the agent's bytes
   * between the stubs (scan.ts Splice), sent as they are: a rewrite copies no body.
   */
  pieces: readonly Buffer[];
  /** Their length in all. */
  bytes: number;
  changed: boolean;
  session: string;
  /** The agent's own session id, when the request was read. */
  agentSession: string | null;
  model: string | null;
  stream: boolean;
  agentTokens: number;
  sentTokens: number;
  stickyEdits: number;
  newEdits: ProxyEdit[];
  /** Whether the batch whose edits this request first carries pays, when its model has a price. */
  breakEven?: BatchBreakEven;
  /** Kept by the person, or a drop of theirs taken back: earlier edits undone on this request. */
  restored: string[];
  /** What the response's usage will measure, when the request was read (recordUsage). */
  sent: SentRequest | null;
  addedMs: number;
}

/**
 * What the server asks of the live rewrite: the LiveRewriter itself (tests, a build without the
 * worker file) or its stand-in that runs it on a worker thread (workerRewriter.ts).
 */
export interface Rewriting {
  /** Never rejects: every failure is a fail-open rewrite with its reason. `format` reads the request (Anthropic's when absent), `path` is what it asked for. */
  rewrite(raw: Buffer, format?: FormatName, path?: string): Promise<Rewrite>;
  recordUsage(session: string, sentBytes: number, usage: ProxyUsage, sent?: SentRequest | null): void;
  warmUp(): Promise<void>;
  /** A shared buffer the server's BodyPool let go, which the worker may let go too; nothing to do in this thread. */
  forget(memory: SharedArrayBuffer): void;
  /** Ends what it runs on (the worker); nothing to do in this thread. */
  close(): Promise<void>;
}

/** Where batches start: the trigger's share of the window. */
export function triggerTokensOf(options: Pick<LiveOptions, 'windowTokens' | 'triggerPercent'>): number {
  return Math.floor((options.windowTokens * options.triggerPercent) / 100);
}

/**
 * The engine options of a batch; the MCP server estimates what a compact_context request will cost
 * with the same ones. `kept`: item ids that stay as they are (earlier edits, the person's keeps).
 */
export function batchEngineOptions(options: LiveOptions, requested: boolean, focus: string, kept: readonly number[]): EngineOptionsInput {
  const engine = options.engine;
  return {
    // The target sits below the trigger, or every request after a batch would start another.
    targetPercent: Math.floor(options.triggerPercent * 0.8),
    ...engine,
    // Asked for by the agent: every gentle tier runs; otherwise down to the target and no further.
    trigger: requested ? 'manual' : 'auto',
    minSavingsPercent: 0,
    timeoutMs: options.budgetMs,
    summary: { ...engine.summary, enabled: engine.summary?.enabled ?? false },
    choices: { keep: [...kept], drop: [] },
    ...(focus ? { focus } : engine.focus ? { focus: engine.focus } : {}),
  };
}

/** The agent's own bytes, sent as they came, and what to record about them. */
export function originalRewrite(
  raw: Buffer,
  action: 'unchanged' | 'failed-open',
  reason: string | null,
  addedMs: number,
  fields: Partial<Rewrite> = {},
): Rewrite {
  const tokens = fields.agentTokens ?? Math.round(raw.length * 0.25);
  return {
    action,
    reason,
    pieces: [raw],
    bytes: raw.length,
    changed: false,
    session: '',
    agentSession: null,
    model: null,
    stream: false,
    agentTokens: tokens,
    sentTokens: tokens,
    stickyEdits: 0,
    newEdits: [],
    restored: [],
    sent: null,
    ...fields,
    addedMs,
  };
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class LiveRewriter implements Rewriting {
  readonly sessions = new SessionStore();
  private readonly panel: PanelInstructionsReader;
  /** The agent session of the first main request, and whether another one came since. */
  private firstAgentSession: string | null | undefined;
  private severalAgentSessions = false;
  private readonly prices: PriceIndex;

  constructor(
    private readonly base: LiveOptions,
    private readonly dirs: LiveDirs,
    log: (line: string) => void = () => undefined,
  ) {
    this.panel = new PanelInstructionsReader(dirs.panel, log);
    this.prices = base.prices ?? indexPrices(BUNDLED_PRICES);
  }

  /**
   * The panel's thresholds, engine knobs and keep/drop choices for this agent session over the
   * proxy's own options (its flags); a session the panel said nothing about gets the proxy's own.
   */
  private said(agentSession: string | null, callIds: readonly string[] = []): Said {
    let instructions: LiveInstructions = this.panel.of(agentSession);
    let note: string | undefined;
    // A request that names no session (Gemini CLI, OpenCode) gets the say of the one session holding its tool calls.
    if (agentSession === null) {
      const placed = this.panel.byToolCalls(callIds);
      if (placed.kind === 'one') instructions = placed.instructions;
      else if (placed.kind === 'several')
        note = `the panel's choices not applied: this request names no session and its tool calls are in ${placed.agentSessions.length} sessions (${placed.agentSessions.join(', ')})`;
    }
    const keep = new Set(instructions.keep ?? []);
    return {
      options: {
        ...this.base,
        ...(instructions.windowTokens ? { windowTokens: instructions.windowTokens } : {}),
        ...(instructions.triggerPercent ? { triggerPercent: instructions.triggerPercent } : {}),
        engine: instructions.engine ?? this.base.engine,
      },
      keep,
      drop: new Set((instructions.drop ?? []).filter((id) => !keep.has(id))),
      ...(note ? { note } : {}),
    };
  }

  private sawAgentSession(agentSession: string | null): void {
    if (this.firstAgentSession === undefined) this.firstAgentSession = agentSession;
    else if (this.firstAgentSession !== agentSession) this.severalAgentSessions = true;
  }

  /**
   * A compaction request names the agent session that asked; one that names none (an agent that
   * does not tell its servers its session) is only applied while this proxy has served one session,
   * so it can never land on another person's or another terminal's conversation.
   */
  private asksFor(request: CompactionRequest, agentSession: string | null): boolean {
    return request.session === null ? !this.severalAgentSessions : request.session === agentSession;
  }

  /** Never throws: every failure is a fail-open rewrite with its reason. */
  async rewrite(raw: Buffer, format: FormatName = 'anthropic-messages', path = '/v1/messages'): Promise<Rewrite> {
    const started = performance.now();
    try {
      return await this.attempt(raw, format, path, started);
    } catch (error) {
      return this.original(raw, started, 'failed-open', `error: ${errorText(error)}`);
    }
  }

  /** The batch running or queued last: batches take turns. */
  private lastBatch: Promise<void> = Promise.resolve();

  /**
   * A batch is the engine's synchronous work on the one event loop. Batches run one at a time with a
   * turn of the loop between them, so the streams waiting get their chunks between two batches:
   * several sessions batching at once hold a stream for one batch, not for all of them back to back
   * (resumed together, they ran in one go). Resolves with the function that ends this batch's turn.
   */
  private async batchTurn(): Promise<() => void> {
    let release: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (release = resolve));
    const previous = this.lastBatch;
    this.lastBatch = previous.then(() => ended);
    await previous;
    await new Promise((resolve) => setImmediate(resolve));
    return release;
  }

  /**
   * One batch of the engine on a small made-up conversation, in memory: the first batch in a fresh
   * process paid ~0.6 s of one-off start-up (code compiled, tables built) while every other stream
   * waited; run when the proxy starts, before an agent has a session to batch.
   */
  async warmUp(): Promise<void> {
    const read = (turn: number): WireMessage[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_warm${turn}`, name: 'Read', input: { file_path: '/warm/up.ts' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_warm${turn}`, content: `// revision ${turn}\n${'const value = compute();\n'.repeat(200)}` }],
      },
    ];
    const messages: WireMessage[] = [
      { role: 'user', content: 'warm up' },
      ...[0, 1, 2, 3].flatMap(read),
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: 'next' },
    ];
    const context = contextFromMessages({
      messages: engineMessages(messages),
      windowTokens: 4_000,
      usedTokens: 3_500,
      calls: [],
      vocabulary: EVERY_AGENTS_TOOLS,
    });
    await compact(context, batchEngineOptions({ ...DEFAULT_LIVE_OPTIONS, windowTokens: 4_000, engine: {} }, false, '', []), { tokenizer: estimateTokenizer });
  }

  /**
   * The exact usage of a response calibrates the session's tokens-per-byte for the next estimate,
   * and is the call a later batch sizes the items it measured by.
   */
  recordUsage(session: string, sentBytes: number, usage: ProxyUsage, sent: SentRequest | null = null): void {
    const state = this.sessions.peek(session);
    const total = usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens;
    if (!state || sentBytes <= 0 || total <= 0) return;
    if (sent) recordCall(state, sent, total, usage.outputTokens);
    state.tokensPerByte = total / sentBytes;
    this.sessions.maxTokensPerByte = Math.max(this.sessions.maxTokensPerByte, state.tokensPerByte);
  }

  forget(): void {
    return undefined;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private original(raw: Buffer, started: number, action: 'unchanged' | 'failed-open', reason: string | null, fields: Partial<Rewrite> = {}): Rewrite {
    return originalRewrite(raw, action, reason, performance.now() - started, fields);
  }

  private async attempt(raw: Buffer, name: FormatName, path: string, started: number): Promise<Rewrite> {
    const format = FORMATS[name];
    const early = format.agentSessionInBody(raw);
    const lastCall = early === null ? format.toolCallInBody(raw) : null;
    let said = this.said(early, lastCall === null ? [] : [lastCall]);
    // Nothing to re-apply or drop anywhere, nothing asked for, and too small to come near the trigger:
    // no scan. From half the trigger on, requests are read so their responses' usage measures the
    // messages the first batch will size (a batch with no measured call can only estimate them).
    if (
      !this.sessions.anyEdits &&
      said.drop.size === 0 &&
      // A drop of a session found by its calls, whose newest call the panel has not read yet.
      !(lastCall !== null && this.panel.dropsByCalls()) &&
      raw.length * this.sessions.maxTokensPerByte <= triggerTokensOf(said.options) / 2 &&
      !hasCompactionRequests(this.dirs.requests)
    ) {
      return this.original(raw, started, 'unchanged', said.note ?? null, { agentSession: early });
    }
    const scanned = format.scan(raw, path);
    if (!scanned.ok) return this.original(raw, started, 'failed-open', `unknown shape: ${scanned.error}`);
    const scan = scanned.value;
    // The format joins the key: the same first bytes in two APIs are two conversations.
    const session = this.sessions.get(sessionKeyOf(name === 'anthropic-messages' ? scan.seed : [name, scan.seed], scan.firstMessage));
    const agentSession = scan.agentSession;
    if (agentSession !== early || agentSession === null)
      said = this.said(agentSession, agentSession === null ? scan.toolResults.map((result) => result.toolUseId) : []);
    const { options } = said;
    const fields = { session: session.key, agentSession, model: scan.model, stream: scan.stream, agentTokens: Math.round(raw.length * session.tokensPerByte) };
    // The agent loop offers tools; side calls (titles, topics) do not and are never compacted.
    const main = scan.hasTools;
    // Side calls answer with their own messages: only the agent loop's calls measure its context.
    // Read when the request leaves, after any batch: its edits are what the response measures.
    const sent = (): SentRequest | null => (main ? { messageCount: scan.messageCount, generation: session.generation } : null);
    if (main) this.sawAgentSession(agentSession);
    const requests = main ? takeCompactionRequests(this.dirs.requests, (request) => this.asksFor(request, agentSession)) : { requests: [], discarded: [] };
    const tokensOf = (bytes: number): number => Math.max(0, Math.round(bytes * session.tokensPerByte));
    // Parsed only when a batch or a new drop has to read the messages; repeating edits splices bytes.
    let parsed: Result<EngineRequest, string> | undefined;
    const body = (): Result<EngineRequest, string> => (parsed ??= format.parse(raw));
    // The person's calls come first: a kept output goes whole again, a dropped one becomes a stub.
    const restored = main ? restoreTakenBack(session, said.keep, said.drop) : [];
    let dropped: StickyEdit[] = [];
    if (main && hasNewDrops(scan.toolResults, session, said.drop)) {
      const read = body();
      if (!read.ok) return this.original(raw, started, 'failed-open', read.error, { ...fields, restored });
      dropped = dropEdits(read.value.messages, session, said.drop, sessionRecallDir(this.dirs.recall, agentSession));
    }
    if (dropped.length > 0) this.sessions.anyEdits = true;
    if (dropped.length > 0 || restored.length > 0) editsChanged(session);
    let sticky = spliceEdits(raw, scan, session.edits, format.encodeStub);
    const sentTokens = tokensOf(raw.length - sticky.saved);
    const yours = [
      restored.length > 0 ? `${restored.length} given back whole by your choice` : '',
      dropped.length > 0 ? `${dropped.length} dropped by you` : '',
    ]
      .filter(Boolean)
      .join(', ');
    let reason: string | null =
      [requests.discarded.length > 0 ? `discarded: ${requests.discarded.join('; ')}` : '', yours, said.note ?? ''].filter(Boolean).join('; ') || null;
    const slow = (why: string | null): string | null => {
      const elapsed = performance.now() - started;
      return elapsed <= options.budgetMs ? why : [why, `slow: ${elapsed.toFixed(1)} ms, over the ${options.budgetMs} ms budget`].filter(Boolean).join('; ');
    };
    const due = sentTokens > triggerTokensOf(options) && sentTokens >= session.nextBatchAt;
    let breakEven: BatchBreakEven | undefined;
    if (main && (requests.requests.length > 0 || due)) {
      const release = await this.batchTurn();
      let batch: Result<{ edits: StickyEdit[]; reason: string; saved: number }, string>;
      try {
        const read = body();
        batch = read.ok
          ? await this.batch(
              read.value,
              applyEdits(read.value.messages, session.edits),
              session,
              sentTokens,
              requests.requests,
              said,
              sessionRecallDir(this.dirs.recall, agentSession),
            )
          : read;
      } finally {
        release();
      }
      if (!batch.ok) return this.original(raw, started, 'failed-open', batch.error, { ...fields, restored });
      reason = [batch.value.reason, yours, said.note ?? ''].filter(Boolean).join('; ');
      breakEven = batch.value.edits.length > 0 ? this.breakEvenOf(scan.model, sentTokens, sentTokens - batch.value.saved) : undefined;
      if (batch.value.edits.length > 0) sticky = spliceEdits(raw, scan, session.edits, format.encodeStub);
    }
    if (sticky.applied === 0) return this.original(raw, started, 'unchanged', slow(reason), { ...fields, restored, sent: sent() });
    const bytes = raw.length - sticky.saved;
    // Reported once, with the request that first carries them.
    const fresh = sticky.used.filter((edit) => edit.sent !== true);
    for (const edit of fresh) edit.sent = true;
    return {
      ...fields,
      action: fresh.length > 0 ? 'edited' : 'sticky',
      reason: slow(reason),
      pieces: sticky.pieces,
      bytes,
      changed: true,
      sentTokens: tokensOf(bytes),
      stickyEdits: sticky.applied - fresh.length,
      newEdits: fresh.map(({ toolUseId, tier, ref, tokensBefore, tokensAfter }) => ({ toolUseId, tier, ref, tokensBefore, tokensAfter })),
      ...(breakEven ? { breakEven } : {}),
      restored,
      sent: sent(),
      addedMs: performance.now() - started,
    };
  }

  /**
   * One batch: the engine plans on what we would send (earlier edits kept as they are), and its
   * tool-output edits join the session's, each original archived first. A batch too small to be
   * worth a cache rewrite is dropped and not retried before the context grew by as much again.
   */
  private async batch(
    body: EngineRequest,
    messages: readonly WireMessage[],
    session: SessionState,
    sentTokens: number,
    requests: readonly CompactionRequest[],
    { options, keep }: Said,
    recall: string,
  ): Promise<Result<{ edits: StickyEdit[]; reason: string; saved: number }, string>> {
    // Items are sized from this edit generation's calls, as the panel sizes them from the transcript;
    // the byte estimate is only the total when no call measured yet.
    const context = contextFromMessages({
      ...(body.system === undefined ? {} : { system: body.system }),
      ...(body.tools ? { tools: body.tools } : {}),
      messages: engineMessages(messages),
      windowTokens: options.windowTokens,
      usedTokens: sentTokens,
      calls: session.calls,
      vocabulary: EVERY_AGENTS_TOOLS,
    });
    // Earlier edits stay as they are, and what the person keeps stays whole.
    const kept = context.items
      .filter((item) => item.kind === 'tool_result' && (session.edits.has(item.toolUseId ?? '') || keep.has(item.toolUseId ?? '')))
      .map((item) => item.id);
    const requested = requests.length > 0;
    const focus = requests
      .map((request) => request.focus)
      .filter((text) => text.trim() !== '')
      .join('\n');
    const result = await compact(context, batchEngineOptions(options, requested, focus, kept), { tokenizer: estimateTokenizer });
    if (result.status === 'failed-open') return { ok: false, error: `engine: ${result.error ?? result.message}` };
    const afterText = new Map(result.after.items.filter((item) => item.kind === 'tool_result').map((item) => [item.toolUseId ?? '', item.text]));
    const edits: StickyEdit[] = [];
    // Bytes of JSON the batch's edits take out; with the session's tokens-per-byte, its saving.
    let savedBytes = 0;
    for (const fate of result.items) {
      const item = context.items[fate.id];
      const tier = EDIT_TIERS.find((name) => name === fate.tier);
      const toolUseId = item?.toolUseId;
      const text = afterText.get(toolUseId ?? '');
      if (
        fate.fate !== 'compacted' ||
        !item ||
        item.kind !== 'tool_result' ||
        !tier ||
        !toolUseId ||
        text === undefined ||
        session.edits.has(toolUseId) ||
        !textOnly(item.block)
      )
        continue;
      const original = toolResultText(item.block?.content);
      const ref = refOf(toolUseId, original);
      // Archived before it shrinks; what cannot be archived is not edited.
      if (!archiveOriginal(recall, ref, original).ok) continue;
      const stub = stubWithRef(text, ref);
      savedBytes += Buffer.byteLength(JSON.stringify(item.block?.content ?? '')) - Buffer.byteLength(JSON.stringify(stub));
      edits.push({
        toolUseId,
        tier,
        text: stub,
        ref,
        tokensBefore: fate.tokensBefore,
        tokensAfter: Math.round(estimateTokenizer.count(stub) * context.tokenScale),
      });
    }
    const saved = Math.round(savedBytes * session.tokensPerByte);
    const asked = requests.map((request) => request.reason.trim()).filter((text) => text !== '');
    if (!requested && saved < options.minBatchTokens) {
      session.nextBatchAt = sentTokens + options.minBatchTokens;
      return { ok: true, value: { edits: [], saved: 0, reason: `batch of ${saved} tokens not worth a cache rewrite (< ${options.minBatchTokens})` } };
    }
    for (const edit of edits) session.edits.set(edit.toolUseId, edit);
    if (edits.length > 0) {
      this.sessions.anyEdits = true;
      editsChanged(session);
    }
    session.batches += 1;
    // A batch that could not reach the target is not retried on every request: only after growth.
    session.nextBatchAt = sentTokens - saved + options.minBatchTokens;
    const why = requested
      ? `compact_context${asked.length > 0 ? `: ${asked.join('; ')}` : ''}`
      : `over the trigger (${sentTokens} > ${triggerTokensOf(options)} tokens)`;
    return { ok: true, value: { edits, saved, reason: `batch ${session.batches}, ${why}: ${edits.length} edits, −${saved} tokens` } };
  }

  /**
   * Does the batch pay, at the prices of the request's model (its long-context tier from the prompt
   * before the batch)? Undefined without a price for it.
   */
  private breakEvenOf(model: string | null, beforeTokens: number, afterTokens: number): BatchBreakEven | undefined {
    const rates =
      model === null
        ? null
        : callRates(this.prices, {
            model,
            at: new Date().toISOString(),
            usage: { inputTokens: beforeTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 },
          });
    if (model === null || rates === null) return undefined;
    const { oneOffUsd, savingPerCallUsd, breakEvenCalls, sentence } = compactCostAt({ model, rates }, beforeTokens, afterTokens);
    return { model: model.slice(0, 100), oneOffUsd, savingPerCallUsd, breakEvenCalls, sentence };
  }
}
