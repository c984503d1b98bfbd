// Does the compaction compact_context asks for pay? The tool only files a request (the proxy edits
// the next request later), so its answer estimates it: the session's transcript read now, the
// engine run with the options of the proxy's batch, and the break-even at the rates of the
// session's latest priced call: the same figures and words as `compact` and the panel's preview.
import { compact, estimateTokenizer } from '../engine';
import type { PriceIndex } from '../pricing';
import { batchEngineOptions, DEFAULT_LIVE_OPTIONS } from '../proxy/rewrite';
import { compactCost, type CompactCost } from '../sessions/costReport';
import { openSession } from '../sessions/handle/open';
import type { AgentAdapter, SessionLocations } from '../sessions/port';
import type { Result, SessionInfo } from '../sessions/types';
import { thousands as exactTokens } from '../base/format';

export interface CompactEstimate {
  /** The model of the session's latest call (what the next call runs on), or null when none is known. */
  model: string | null;
  /** Tokens of the live context now and once compacted, as the engine plans it. */
  beforeTokens: number;
  afterTokens: number;
  /** The break-even; null when the model has no price or nothing would be compacted (no edit, no cost). */
  cost: CompactCost | null;
}

/** Where to look for the session, and with which prices. */
export interface EstimateInputs {
  adapter: AgentAdapter;
  where: SessionLocations;
  /** The folder the agent runs in (its sessions are listed first), when known. */
  workspace?: string;
  prices: PriceIndex;
}

/**
 * Plans are cut short after this long; the proxy's batch budget (50 ms) is for a request waiting,
 * the tool's answer may take longer.
 */
const ESTIMATE_TIMEOUT_MS = 5_000;

export async function estimateCompaction(inputs: EstimateInputs, agentSession: string | null, focus: string): Promise<Result<CompactEstimate, string>> {
  if (agentSession === null) return { ok: false, error: 'the agent did not say which session asked (no CLAUDE_CODE_SESSION_ID)' };
  const found = await findSession(inputs, agentSession);
  if (found === null) return { ok: false, error: `no transcript of session ${agentSession} found` };
  const handle = openSession(inputs.adapter, found, { ...(inputs.where.env ? { env: inputs.where.env } : {}) });
  const read = await handle.liveContext();
  await handle.dispose();
  if (!read.ok) return { ok: false, error: read.error.message };
  const { live, context } = read.value;
  const options = { ...DEFAULT_LIVE_OPTIONS, windowTokens: live.fill.windowTokens };
  const result = await compact(context, { ...batchEngineOptions(options, true, focus, []), timeoutMs: ESTIMATE_TIMEOUT_MS }, { tokenizer: estimateTokenizer });
  if (result.status === 'failed-open') return { ok: false, error: `engine: ${result.error ?? result.message}` };
  const { tokensBefore, tokensAfter } = result.metrics;
  const model = live.calls.findLast((call) => call.model !== null)?.model ?? live.session.model;
  return {
    ok: true,
    value: {
      model,
      beforeTokens: tokensBefore,
      afterTokens: tokensAfter,
      cost: tokensAfter < tokensBefore ? compactCost(inputs.prices, live, tokensBefore, tokensAfter) : null,
    },
  };
}

/** The session's transcript: among the workspace's sessions first, then anywhere. */
async function findSession({ adapter, where, workspace }: EstimateInputs, id: string): Promise<SessionInfo | null> {
  for (const folder of workspace === undefined ? [undefined] : [workspace, undefined]) {
    const listed = await adapter.listSessions(where, folder);
    const session = listed.ok ? listed.value.find((candidate) => candidate.id === id && !candidate.isSidechain) : undefined;
    if (session !== undefined) return session;
  }
  return null;
}

/** The estimate in one sentence, in the words of `compact` and the preview. */
export function estimateSentence(estimate: Result<CompactEstimate, string>): string {
  if (!estimate.ok) return `No cost estimate: ${estimate.error}.`;
  const { model, beforeTokens, afterTokens, cost } = estimate.value;
  // A batch without edits leaves the prompt as it was: the cache is still read, nothing is paid.
  if (afterTokens >= beforeTokens) return `Nothing to compact now (${exactTokens(beforeTokens)} tokens, estimated from the transcript): it costs nothing.`;
  const tokens = `${exactTokens(beforeTokens)} → ${exactTokens(afterTokens)} tokens, estimated from the transcript`;
  if (cost === null) return `No price for ${model ?? "the session's model"}: tokens only (${tokens}).`;
  return `At ${cost.model}'s prices it ${cost.sentence} (${tokens}).`;
}
