// What the proxy remembers per agent session: every edit it ever made (by tool_use id, with the
// exact text sent in place of the output), so each later request carries the same bytes in the
// same places and the provider's prompt cache keeps its prefix. Memory only, bounded: a restart
// forgets the edits and costs one cache rewrite, never a wrong context.
import { createHash } from 'node:crypto';
import { LruCache, type MeasuredCall } from '../engine';
import type { EDIT_TIERS } from './events';

export interface StickyEdit {
  toolUseId: string;
  tier: (typeof EDIT_TIERS)[number];
  /** What replaces the tool result's content, stub and ref included. */
  text: string;
  ref: string;
  /** Estimated tokens of the original output and of `text`. */
  tokensBefore: number;
  tokensAfter: number;
  /** Went upstream at least once: the event stream reports an edit when it first reaches the model. */
  sent?: boolean;
}

export interface SessionState {
  readonly key: string;
  readonly edits: Map<string, StickyEdit>;
  /**
   * Exact tokens per byte of what we sent, from the provider's usage of the last response: turns
   * the byte size of a request into a token estimate without counting (1/4 until a response came).
   */
  tokensPerByte: number;
  /** No new batch is tried below this estimate (after a batch, or one too small to be worth it). */
  nextBatchAt: number;
  batches: number;
  /**
   * Bumped whenever the set of edits changes: a call measured the prompt as it was sent, so only the
   * calls of the current generation measure the messages a batch now sees.
   */
  generation: number;
  /** The provider's usage of this generation's calls, by the message index their response takes. */
  calls: MeasuredCall[];
}

/** Calls kept per session: enough for a long stretch between two batches, bounded for memory. */
export const MAX_CALLS = 1_000;

/** The request a response answered: how many messages it sent and under which edit generation. */
export interface SentRequest {
  messageCount: number;
  generation: number;
}

/**
 * Records a completed call. One measured under an older set of edits no longer describes what is
 * sent and is left out; a retried request (same message count) replaces the earlier reading.
 */
export function recordCall(state: SessionState, sent: SentRequest, promptTokens: number, outputTokens: number): void {
  if (sent.generation !== state.generation || sent.messageCount <= 0 || promptTokens <= 0) return;
  const call: MeasuredCall = { from: sent.messageCount, to: sent.messageCount, promptTokens, outputTokens };
  const at = state.calls.findIndex((earlier) => earlier.from >= sent.messageCount);
  if (at === -1) state.calls.push(call);
  else state.calls.splice(at, state.calls[at]?.from === sent.messageCount ? 1 : 0, call);
  if (state.calls.length > MAX_CALLS) state.calls.splice(0, state.calls.length - MAX_CALLS);
}

/** The edits changed: what earlier calls measured is no longer what goes upstream. */
export function editsChanged(state: SessionState): void {
  state.generation += 1;
  state.calls = [];
}

export const DEFAULT_TOKENS_PER_BYTE = 0.25;
export const MAX_SESSIONS = 64;

/**
 * A session is named by the agent's user id (Claude Code puts its session in it) and the first
 * message's bytes, which never change while the conversation grows: a subagent or a side call with
 * its own first message is its own session.
 */
export function sessionKeyOf(userId: unknown, firstMessage: Uint8Array): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(userId ?? null));
  hash.update('\0');
  hash.update(firstMessage);
  return hash.digest('hex').slice(0, 16);
}

/** An agent session id: a UUID, as Claude Code names its sessions. */
export const AGENT_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `value` as an agent session id (lower case), or null when it is not one. */
export function agentSessionIdOf(value: unknown): string | null {
  return typeof value === 'string' && AGENT_SESSION_ID.test(value) ? value.toLowerCase() : null;
}

/**
 * The agent's own session id from `metadata.user_id`: Claude Code 2.x sends a JSON string with
 * `session_id`, 1.x `user_<hash>_account_<uuid>_session_<uuid>`. Null for anything else.
 */
export function agentSessionOf(userId: unknown): string | null {
  if (typeof userId !== 'string') return null;
  let id: unknown = /_session_([0-9a-f-]{36})$/i.exec(userId)?.[1];
  if (id === undefined && userId.startsWith('{')) {
    try {
      id = (JSON.parse(userId) as { session_id?: unknown }).session_id;
    } catch {
      return null;
    }
  }
  return agentSessionIdOf(id);
}

/**
 * The same from a body the proxy does not parse (below the trigger): Claude Code sends `metadata`
 * after the messages and tools, so it is searched from the end and only its first field is read.
 */
export function agentSessionInBody(raw: Buffer): string | null {
  const at = raw.lastIndexOf('"metadata":{"user_id":');
  if (at === -1) return null;
  const field = /^"metadata":\{"user_id":("(?:[^"\\]|\\.){0,1000}")/.exec(raw.subarray(at, at + 1_100).toString('utf8'));
  if (!field?.[1]) return null;
  try {
    return agentSessionOf(JSON.parse(field[1]));
  } catch {
    return null;
  }
}

export class SessionStore {
  private readonly sessions = new LruCache<string, SessionState>(MAX_SESSIONS);
  /** Some session has edits: until then a small request needs no parsing at all. */
  anyEdits = false;
  /** The highest tokens-per-byte any session measured, for a size check before parsing. */
  maxTokensPerByte = DEFAULT_TOKENS_PER_BYTE;

  get(key: string): SessionState {
    let state = this.sessions.get(key);
    if (!state) {
      state = { key, edits: new Map(), tokensPerByte: DEFAULT_TOKENS_PER_BYTE, nextBatchAt: 0, batches: 0, generation: 0, calls: [] };
      this.sessions.set(key, state);
    }
    return state;
  }

  peek(key: string): SessionState | undefined {
    return this.sessions.get(key);
  }
}
