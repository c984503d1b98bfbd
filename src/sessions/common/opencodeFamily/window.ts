// OpenCode's context window and its own auto-compaction point, for the gauge. As 1.18.33 computes it
// (read in its bundled source): with the model's `limit.input` set, it compacts at
// `limit.input − reserved`, where `reserved` is `compaction.reserved` or min(20 000, the output cap);
// otherwise at `limit.context − the output cap`, the output cap being min(`limit.output`, 32 000)
// (32 000 when the model names none). It compacts when a call's total reaches that point, and never
// with `compaction.auto: false` or a model whose context is 0. The limits come from the config
// (OPENCODE_CONFIG_CONTENT, the global and the project's opencode.json[c]), else from its models.dev
// cache; the recordings ran with a 10 000-token model and compacted past 9 000.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { READ_CAPS, readRegularText, withoutBom } from '../regularFile';
import { parse } from 'jsonc-parser';
import type { OpencodeFlavour } from './flavour';
import { num, obj, type Json } from './rows';

const OUTPUT_TOKEN_MAX = 32_000;
const COMPACTION_BUFFER = 20_000;
/** When nothing says the model's window: what most of OpenCode's models have. */
export const DEFAULT_OPENCODE_WINDOW_TOKENS = 200_000;

export interface ModelLimits {
  context: number;
  output: number;
  input: number;
}

export interface OpencodeWindow {
  windowTokens: number;
  /** Where OpenCode compacts; `windowTokens` when it never does. */
  autoCompactTokens: number;
  known: boolean;
}

/** The compaction point for a model's limits and the `compaction` config. */
export function opencodeAutoCompactTokens(limits: ModelLimits, compaction: Json | null): number {
  if (compaction?.auto === false || limits.context === 0) return limits.context;
  const outputCap = Math.min(limits.output || OUTPUT_TOKEN_MAX, OUTPUT_TOKEN_MAX);
  const reserved = typeof compaction?.reserved === 'number' ? compaction.reserved : Math.min(COMPACTION_BUFFER, outputCap);
  return limits.input > 0 ? Math.max(0, limits.input - reserved) : Math.max(0, limits.context - outputCap);
}

async function readJsonc(path: string, cap: number = READ_CAPS.settings): Promise<Json | null> {
  const read = await readRegularText(path, cap);
  if (!read.ok || read.value === null) return null;
  try {
    return obj(parse(withoutBom(read.value)));
  } catch {
    return null;
  }
}

/** Configs in OpenCode's order of precedence, the strongest last. */
async function configs(flavour: OpencodeFlavour, directory: string | null, env: Readonly<Record<string, string | undefined>>): Promise<Json[]> {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME ?? homedir(), '.config');
  const files = [
    ...flavour.globalConfigs.map((name) => join(configHome, flavour.folder, name)),
    ...(directory ? flavour.projectConfigs.map((name) => join(directory, name)) : []),
  ];
  const found: Json[] = [];
  for (const file of files) {
    const config = await readJsonc(file);
    if (config !== null) found.push(config);
  }
  const inline = env[flavour.configEnv];
  if (inline) {
    const config = obj(parse(inline));
    if (config !== null) found.push(config);
  }
  return found;
}

function limitsFrom(models: unknown, model: string): ModelLimits | null {
  const limit = obj(obj(obj(models)?.[model])?.limit);
  return limit === null ? null : { context: num(limit.context), output: num(limit.output), input: num(limit.input) };
}

/** The window and compaction point of `provider/model`, for a session run in `directory`. */
export async function readOpencodeWindow(
  flavour: OpencodeFlavour,
  model: string | null,
  directory: string | null,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<OpencodeWindow> {
  const found = await configs(flavour, directory, env);
  const compaction = found.reduce<Json | null>((merged, config) => ({ ...merged, ...obj(config.compaction) }), null);
  const [provider, ...rest] = (model ?? '').split('/');
  const modelId = rest.join('/');
  let limits: ModelLimits | null = null;
  for (const config of found) limits = limitsFrom(obj(obj(config.provider)?.[provider ?? ''])?.models, modelId) ?? limits;
  if (limits === null && provider) {
    const cache = await readJsonc(join(env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), '.cache'), flavour.folder, 'models.json'), READ_CAPS.catalogue);
    limits = limitsFrom(obj(cache?.[provider])?.models, modelId);
  }
  if (limits === null || limits.context <= 0) {
    const fallback = { context: DEFAULT_OPENCODE_WINDOW_TOKENS, output: OUTPUT_TOKEN_MAX, input: 0 };
    return { windowTokens: fallback.context, autoCompactTokens: opencodeAutoCompactTokens(fallback, compaction), known: false };
  }
  return { windowTokens: limits.context, autoCompactTokens: opencodeAutoCompactTokens(limits, compaction), known: true };
}
