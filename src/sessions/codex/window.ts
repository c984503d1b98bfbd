// Codex's context window and its own auto-compact point, for the gauge.
//
// Codex reports the window it works with (`model_context_window`, e.g. 258400 for gpt-5.5): the
// model's context window (272000) times its `effective_context_window_percent` (95 unless the model
// says otherwise). It compacts once the context reaches `model_auto_compact_token_limit`, capped at
// 90 % of the model's full window, which is also the default. Checked with 0.169.0 against the
// stand-in: with no limit set, a turn at 244760 tokens went on and one at 244790 compacted
// (0.9 × 272000 = 244800, less the few tokens of the tool output already added); with the limit
// set to 250000 it still compacted at 244790, and with 100000 at 99990 but not at 99900. That is
// `ModelInfo::auto_compact_token_limit` in codex-rs (protocol/src/openai_models.rs).
import { join } from 'node:path';
import { READ_CAPS, readRegularText, withoutBom } from '../common/regularFile';

/** What 0.169.0 reports for its default model (gpt-5.5) when a rollout names no window. */
export const DEFAULT_CODEX_WINDOW_TOKENS = 258_400;
const EFFECTIVE_WINDOW_PERCENT = 95;
const AUTO_COMPACT_PERCENT_OF_FULL_WINDOW = 90;

/** Codex's auto-compact point for a reported window, with the configured limit when there is one. */
export function codexAutoCompactTokens(reportedWindow: number, configuredLimit?: number | null): number {
  const fullWindow = Math.round((reportedWindow * 100) / EFFECTIVE_WINDOW_PERCENT);
  const cap = Math.floor((fullWindow * AUTO_COMPACT_PERCENT_OF_FULL_WINDOW) / 100);
  return configuredLimit != null && configuredLimit > 0 ? Math.min(configuredLimit, cap) : cap;
}

const LIMIT_KEY = 'model_auto_compact_token_limit';

/**
 * `model_auto_compact_token_limit` from `<codexHome>/config.toml`, or null. Only a top-level
 * `key = <integer>` line before the first table is read (profiles and `-c` overrides on Codex's
 * command line are not visible in files); anything else, or no file, is null.
 */
export async function readConfiguredAutoCompactLimit(codexHome: string): Promise<number | null> {
  const read = await readRegularText(join(codexHome, 'config.toml'), READ_CAPS.settings);
  if (!read.ok || read.value === null) return null;
  for (const raw of withoutBom(read.value).split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line.startsWith('[')) return null;
    const match = new RegExp(`^${LIMIT_KEY}\\s*=\\s*([0-9][0-9_]*)$`).exec(line);
    if (match?.[1] !== undefined) {
      const value = Number(match[1].replace(/_/g, ''));
      return Number.isSafeInteger(value) && value > 0 ? value : null;
    }
  }
  return null;
}
