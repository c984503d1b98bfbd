// `ctxlens statusline`: one line for Claude Code's `statusLine` command, from the JSON it pipes
// in on every redraw. This module and `statuslineMain.ts` (its own tiny bundle) import nothing
// heavy — no zod, engine or tokenizer — so a redraw costs little more than starting node.
import { statusLineSource } from '../sessions/statusLine';
import { parseInputJson, readStdin } from './hookInput';
import type { Io } from './io';
import { formatUsd } from '../protocol/format';

export const STATUSLINE_USAGE = `ctxlens statusline
  Claude Code status line command (status JSON on stdin): prints one line such as
  "ctx 62% · 124k/200k · 43k to auto-compact". Without a context_window in the input, the newest
  usage in transcript_path is shown. Always exits 0; unreadable input prints "ctx —".
  --cost (or CONTEXT_LENS_STATUSLINE_COST=1) adds the session's cost so far as Claude Code reports it
  in the same input ("· $1.23 so far"): nothing is read for it.
  --cache (or CONTEXT_LENS_STATUSLINE_CACHE=1) adds the prompt cache's health: from Claude Code's own
  prompt_cache figures in the input when it sends them (2.1.328 does; said "Claude Code's"), else
  from the latest calls in transcript_path ("· cache 91% · 2 misses, last idle").`;

/** The cost is Claude Code's own figure from its input: free to show, so opt-in only to keep the line short. */
export const COST_ENV = 'CONTEXT_LENS_STATUSLINE_COST';
export const CACHE_ENV = 'CONTEXT_LENS_STATUSLINE_CACHE';

export interface StatusLineOptions {
  cost?: boolean;
  cache?: boolean;
}

/** Claude Code's own miss causes (its `prompt_cache.last_miss_cause.causes`), in our words. */
const CLAUDE_CAUSES: Record<string, string> = {
  ttl_expired_5m: 'idle past 5 min',
  ttl_expired_1h: 'idle past 1 h',
  model_changed: 'model changed',
  system_prompt_changed: 'system prompt changed',
  tools_changed: 'tools changed',
  messages_rewritten: 'messages rewritten',
  likely_server_side: 'server side',
  unknown: 'cause unknown',
};
const OUR_CAUSES: Record<string, string> = {
  idle: 'idle',
  model: 'model changed',
  compaction: 'compaction',
  prefix: 'system prompt or tools changed',
  unknown: 'cause unknown',
};

const wantsCache = (env: Io['env'], options: StatusLineOptions): boolean => options.cache === true || env[CACHE_ENV] === '1';
const misses = (count: number): string => `${count} ${count === 1 ? 'miss' : 'misses'}`;

/** " · cache 91% · 4 misses, last idle past 5 min (Claude Code's)" from the input's `prompt_cache`; null when it has none. */
function promptCachePart(input: unknown): string | null {
  const cache = obj(obj(input)?.prompt_cache);
  if (cache === null) return null;
  const ratio = num(cache.hit_ratio);
  const count = num(cache.misses) ?? 0;
  const causes = obj(cache.last_miss_cause)?.causes;
  const first = Array.isArray(causes) && typeof causes[0] === 'string' ? causes[0] : null;
  const last =
    count > 0 && first !== null
      ? `, last ${
          CLAUDE_CAUSES[first] ??
          first
            .replace(/[^a-z0-9_]/gi, '')
            .slice(0, 40)
            .replace(/_/g, ' ')
        }`
      : '';
  return ` · cache ${ratio === null ? '—' : `${Math.round(ratio * 100)}%`} · ${misses(count)}${last} (Claude Code's)`;
}

/** Shown when the input says nothing usable (no session yet, or not the JSON Claude Code sends). */
export const NEUTRAL = 'ctx —';

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);
const obj = (value: unknown): Record<string, unknown> | null => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null);

function compact(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(1))}M`;
  return `${Math.round(tokens / 1000)}k`;
}

/**
 * Used tokens: the last request's own usage (input + cache writes + cache reads, what the window
 * holds) when Claude Code sends it, else its rounded `used_percentage` of the window.
 */
export function statusLine(stdin: string, env: Io['env'] = {}, options: StatusLineOptions = {}): string {
  const input = parsed(stdin);
  return input === undefined ? NEUTRAL : statusLineOf(input, env, options);
}

/** The input as JSON, or undefined when it is not (or is too large or deep to be Claude Code's). */
function parsed(stdin: string): unknown {
  try {
    return parseInputJson(stdin);
  } catch {
    return undefined;
  }
}

/** `statusLine` on input already parsed. */
function statusLineOf(input: unknown, env: Io['env'], options: StatusLineOptions): string {
  const window = obj(obj(input)?.context_window);
  const size = num(window?.context_window_size);
  if (window === null || size === null || size === 0) return NEUTRAL;
  const usage = obj(window.current_usage);
  const parts = usage === null ? [] : [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens].map(num);
  const reported = num(window.used_percentage);
  const used = parts.some((part) => part !== null)
    ? parts.reduce<number>((sum, part) => sum + (part ?? 0), 0)
    : reported === null
      ? null
      : (reported / 100) * size;
  if (used === null) return NEUTRAL;
  return line(used, size, reported, env) + costPart(input, env, options) + (wantsCache(env, options) ? (promptCachePart(input) ?? '') : '');
}

/** " · $1.23 so far" from Claude Code's `cost.total_cost_usd`, when asked for and present. */
function costPart(input: unknown, env: Io['env'], options: StatusLineOptions): string {
  if (!options.cost && env[COST_ENV] !== '1') return '';
  const usd = num(obj(obj(input)?.cost)?.total_cost_usd);
  return usd === null ? '' : ` · ${formatUsd(usd)} so far`;
}

/**
 * `statusLine`, falling back to the transcript's newest usage when the input carries no window
 * (Claude Code versions without `context_window`, or a session before its first response).
 */
export async function resolveStatusLine(stdin: string, env: Io['env'] = {}, options: StatusLineOptions = {}): Promise<string> {
  // Parsed once: the fallback reads the same input.
  const input = parsed(stdin);
  if (input === undefined) return NEUTRAL;
  const fromInput = statusLineOf(input, env, options);
  const value = obj(input)?.transcript_path;
  const path = typeof value === 'string' && value !== '' ? value : undefined;
  if (fromInput !== NEUTRAL) return fromInput + (wantsCache(env, options) && promptCachePart(input) === null ? await transcriptCachePart(path) : '');
  const fill = path === undefined ? null : await statusLineSource.transcriptFill(path);
  if (fill === null) return NEUTRAL;
  return (
    line(fill.usedTokens, fill.windowTokens, null, env) +
    costPart(input, env, options) +
    (wantsCache(env, options) ? (promptCachePart(input) ?? (await transcriptCachePart(path))) : '')
  );
}

/** " · cache 91% · 2 misses, last idle" from the transcript's latest calls, when Claude Code sent no figures of its own. */
async function transcriptCachePart(path: string | undefined): Promise<string> {
  const cache = path === undefined ? null : await statusLineSource.transcriptCache(path);
  if (cache === null) return '';
  const last = cache.misses > 0 && cache.lastCause !== null ? `, last ${OUR_CAUSES[cache.lastCause] ?? cache.lastCause}` : '';
  return ` · cache ${Math.round(cache.hitRatio * 100)}% · ${misses(cache.misses)}${last}`;
}

function line(used: number, size: number, reported: number | null, env: Io['env']): string {
  const percent = Math.round(reported ?? (used / size) * 100);
  const remaining = statusLineSource.autoCompactTokens(size, env) - used;
  const autoCompact = remaining > 0 ? `${compact(remaining)} to auto-compact` : 'auto-compact due';
  return `ctx ${percent}% · ${compact(used)}/${compact(size)} · ${autoCompact}`;
}

export async function statuslineCommand(args: readonly string[], io: Io): Promise<number> {
  // Input over the cap is not Claude Code's: the neutral line, at once.
  const stdin = await readStdin().catch(() => null);
  io.out.write(`${stdin === null ? NEUTRAL : await resolveStatusLine(stdin, io.env, { cost: args.includes('--cost'), cache: args.includes('--cache') })}\n`);
  // A status line never reports failure: Claude Code would show nothing instead of the neutral line.
  return 0;
}
