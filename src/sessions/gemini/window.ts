// The Gemini CLI's context window and its own compression point, for the gauge (0.61,
// core/tokenLimits.ts and context/chatCompressionService.ts): every model has a 1,048,576-token
// limit but the Gemma 4 ones (256,000); before a request it compresses once the last prompt reached
// `model.compressionThreshold` × that limit (default 0.5). The threshold comes from the settings
// files merged as the CLI merges them: the user's `<.gemini>/settings.json`, then the workspace's
// `.gemini/settings.json`, then the system's (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`, default
// `/etc/gemini-cli/settings.json`), which wins. A zero or missing threshold means the default here
// (the CLI then asks a remote experiment flag we cannot see).
import { join } from 'node:path';
import { READ_CAPS, readRegularText, withoutBom } from '../common/regularFile';
import { num, obj } from './records';

export const DEFAULT_GEMINI_WINDOW_TOKENS = 1_048_576;
const GEMMA_4_WINDOW_TOKENS = 256_000;
const GEMMA_4_MODELS = new Set(['gemma-4-31b-it', 'gemma-4-26b-a4b-it']);
export const DEFAULT_COMPRESSION_THRESHOLD = 0.5;

/** The CLI's token limit of a model (its `tokenLimit`); null model: the default. */
export function geminiTokenLimit(model: string | null): number {
  return model !== null && GEMMA_4_MODELS.has(model) ? GEMMA_4_WINDOW_TOKENS : DEFAULT_GEMINI_WINDOW_TOKENS;
}

export function compressionPoint(model: string | null, threshold: number | null): number {
  const fraction = threshold !== null && threshold > 0 && threshold <= 1 ? threshold : DEFAULT_COMPRESSION_THRESHOLD;
  return Math.floor(fraction * geminiTokenLimit(model));
}

/** Settings files are JSON with comments: comments are blanked outside strings before parsing. */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    const next = text[index + 1];
    if (inString) {
      out += char;
      if (char === '\\') out += text[++index] ?? '';
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (char === '/' && next === '/') {
      while (index < text.length && text[index] !== '\n') index++;
      out += '\n';
    } else if (char === '/' && next === '*') {
      const close = text.indexOf('*/', index + 2);
      index = close === -1 ? text.length : close + 1;
    } else out += char;
  }
  return out;
}

/** `model.compressionThreshold` of one settings file, or null. */
async function thresholdIn(path: string): Promise<number | null> {
  const text = await readRegularText(path, READ_CAPS.settings);
  if (!text.ok || text.value === null) return null;
  try {
    return num(obj(obj(JSON.parse(stripJsonComments(withoutBom(text.value))) as unknown)?.model)?.compressionThreshold);
  } catch {
    return null;
  }
}

export interface ThresholdSources {
  geminiDir: string | null;
  cwd: string | null;
  env?: Readonly<Record<string, string | undefined>>;
}

/** The compression threshold in force for a session: system over workspace over user; null when none sets it. */
export async function readCompressionThreshold({ geminiDir, cwd, env = process.env }: ThresholdSources): Promise<number | null> {
  const system = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH?.trim() || '/etc/gemini-cli/settings.json';
  const files = [system, ...(cwd !== null ? [join(cwd, '.gemini', 'settings.json')] : []), ...(geminiDir !== null ? [join(geminiDir, 'settings.json')] : [])];
  for (const file of files) {
    const threshold = await thresholdIn(file);
    if (threshold !== null) return threshold;
  }
  return null;
}
