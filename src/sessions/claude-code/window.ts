// Context window sizes and Claude Code's own auto-compact point, so the gauge can show where the
// agent will compact by itself next to Context Lens's own trigger.

export const DEFAULT_WINDOW_TOKENS = 200_000;
export const ONE_MILLION_WINDOW_TOKENS = 1_000_000;
/** Claude Code reserves at most this much of the window for the summary it writes when compacting. */
const SUMMARY_OUTPUT_RESERVE_CAP = 20_000;
/** Claude Code compacts this many tokens before its effective window is full. */
const AUTO_COMPACT_BUFFER_TOKENS = 13_000;
/** The beta flag that gives Sonnet-class models a 1M window. */
const ONE_MILLION_BETA_PREFIX = 'context-1m';

export interface WindowHints {
  model: string | null;
  /** User setting; 0 or undefined means "take it from the model". */
  overrideTokens?: number;
  /** Betas the recorded request carried (from `api-request` params), if any were seen. */
  betas?: readonly string[];
  /** Tokens a request is known to have sent: more than 200k proves the larger window. */
  observedTokens?: number;
}

export interface WindowSize {
  tokens: number;
  source: 'model' | 'override' | 'default';
}

export function resolveWindow(hints: WindowHints): WindowSize {
  if (hints.overrideTokens !== undefined && hints.overrideTokens > 0) return { tokens: hints.overrideTokens, source: 'override' };
  const oneMillion =
    (hints.model?.toLowerCase().includes('[1m]') ?? false) ||
    (hints.betas ?? []).some((beta) => beta.startsWith(ONE_MILLION_BETA_PREFIX)) ||
    (hints.observedTokens ?? 0) > DEFAULT_WINDOW_TOKENS;
  if (oneMillion) return { tokens: ONE_MILLION_WINDOW_TOKENS, source: 'model' };
  return { tokens: DEFAULT_WINDOW_TOKENS, source: hints.model === null ? 'default' : 'model' };
}

export interface AutoCompactOptions {
  /** The model's max output tokens; Claude Code reserves min(this, 20000) for the summary. */
  maxOutputTokens?: number;
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (percent of the effective window); it can only lower the point. */
  percentOverride?: number;
}

/** Token count at which Claude Code auto-compacts: `window − min(maxOutput, 20000) − 13000`. */
export function agentAutoCompactTokens(windowTokens: number, options: AutoCompactOptions = {}): number {
  const effective = windowTokens - Math.min(options.maxOutputTokens ?? SUMMARY_OUTPUT_RESERVE_CAP, SUMMARY_OUTPUT_RESERVE_CAP);
  // Windows smaller than the reserves (only through an override) have no auto-compact point: 0.
  const threshold = Math.max(0, effective - AUTO_COMPACT_BUFFER_TOKENS);
  const percent = options.percentOverride;
  if (percent !== undefined && percent > 0 && percent <= 100) return Math.min(threshold, Math.floor((Math.max(0, effective) * percent) / 100));
  return threshold;
}

/** Reads the percent override the way Claude Code does: a number in (0, 100], else ignored. */
export function percentOverrideFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE;
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number.parseFloat(raw);
  return Number.isFinite(value) && value > 0 && value <= 100 ? value : undefined;
}

/**
 * What Claude Code keeps free for the next response: its auto-compact point sits
 * `min(maxOutput, 20000) + 13000` below the window, so the reserve is what lies between the point
 * plus its buffer and the window.
 */
export function reservedOutputTokens(fill: { windowTokens: number; agentAutoCompactTokens: number }): number {
  return Math.max(0, fill.windowTokens - fill.agentAutoCompactTokens - AUTO_COMPACT_BUFFER_TOKENS);
}
