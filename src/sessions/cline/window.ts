// The context window of a Cline session's model and where Cline itself starts to shrink the history.
// Cline reads windows from its provider's model table; an OpenAI-compatible model it does not know
// gets 128 000 (its defaults for such models). Its legacy context manager (and the SDK's default
// compaction trigger, which follows it) acts at the window less 27 000 (64k windows), 30 000 (128k),
// 40 000 (200k), else at the larger of window − 40 000 and 80 % of it.

export const DEFAULT_CLINE_WINDOW = 128_000;

const WINDOWS: readonly [RegExp, number][] = [
  [/claude.*(opus|sonnet|haiku)|claude-(3|4)|anthropic/i, 200_000],
  [/gpt-5|codex/i, 400_000],
  [/gpt-4\.1|gemini/i, 1_048_576],
  [/gpt-4o|o[134](-mini)?\b|deepseek|qwen|glm|kimi|grok/i, 128_000],
];

export function clineWindow(model: string | null): { tokens: number; known: boolean } {
  if (model !== null) for (const [pattern, tokens] of WINDOWS) if (pattern.test(model)) return { tokens, known: true };
  return { tokens: DEFAULT_CLINE_WINDOW, known: false };
}

export function clineCompactionPoint(window: number): number {
  if (window === 64_000) return window - 27_000;
  if (window === 128_000) return window - 30_000;
  if (window === 200_000) return window - 40_000;
  return Math.round(Math.max(window - 40_000, window * 0.8));
}
