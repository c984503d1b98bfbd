// OpenCode through the live proxy for one command: the provider of its model gets the proxy as its
// `options.baseURL` through OPENCODE_CONFIG_CONTENT, the config layer OpenCode merges over its
// config files (which are only read); an OPENCODE_CONFIG_CONTENT the person had is kept, the
// override merged into it. The proxy sends the requests where that baseURL pointed (the AI SDK's
// default for a built-in provider). OpenAI-compatible providers speak Chat Completions, `openai`
// the Responses API, `anthropic` the Messages API, `google` Gemini's API.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { originOf, throughProxy, type AgentWireFormat, type LiveProxyPointing } from '../liveProxy';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null);

/** The AI SDK's own base URL and wire format of OpenCode's built-in providers. */
const BUILT_IN: Readonly<Record<string, { base: string; format: AgentWireFormat }>> = {
  openai: { base: 'https://api.openai.com/v1', format: 'openai-responses' },
  anthropic: { base: 'https://api.anthropic.com/v1', format: 'anthropic-messages' },
  google: { base: 'https://generativelanguage.googleapis.com/v1beta', format: 'gemini' },
};
const BY_PACKAGE: Readonly<Record<string, AgentWireFormat>> = {
  '@ai-sdk/openai-compatible': 'openai-chat',
  '@ai-sdk/openai': 'openai-responses',
  '@ai-sdk/anthropic': 'anthropic-messages',
  '@ai-sdk/google': 'gemini',
};

function readConfig(path: string): Json | null {
  try {
    return obj(parse(readFileSync(path, 'utf8')));
  } catch {
    return null;
  }
}

/** OpenCode's configs, weakest first: the global files, the project's, then OPENCODE_CONFIG_CONTENT. */
function configs(cwd: string, env: Readonly<Record<string, string | undefined>>): Json[] {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME ?? homedir(), '.config');
  const files = [
    join(configHome, 'opencode', 'opencode.json'),
    join(configHome, 'opencode', 'opencode.jsonc'),
    join(cwd, 'opencode.json'),
    join(cwd, 'opencode.jsonc'),
  ];
  const found = files.map(readConfig).filter((config): config is Json => config !== null);
  const inline = env.OPENCODE_CONFIG_CONTENT ? obj(parse(env.OPENCODE_CONFIG_CONTENT)) : null;
  return inline ? [...found, inline] : found;
}

/** `--model provider/model` (or `-m`) on the command line. */
function modelFlag(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--model' || arg === '-m') return args[index + 1];
    if (arg.startsWith('--model=')) return arg.slice(8);
  }
  return undefined;
}

export const opencodeLiveProxy: LiveProxyPointing = {
  commands: ['opencode', 'opencode.exe'],
  point(proxyOrigin, env, args) {
    const found = configs(process.cwd(), env);
    const model =
      modelFlag(args) ?? found.reduce<string | undefined>((chosen, config) => (typeof config.model === 'string' ? config.model : chosen), undefined);
    const provider = model?.split('/')[0];
    if (!provider)
      return {
        ok: false,
        error: 'OpenCode names no model (its config `model` or --model provider/model): the proxy cannot tell which provider to point at it',
      };
    const entry = found.reduce<Json>((merged, config) => ({ ...merged, ...obj(obj(config.provider)?.[provider]) }), {});
    const options = found.reduce<Json>((merged, config) => ({ ...merged, ...obj(obj(obj(config.provider)?.[provider])?.options) }), {});
    const base = typeof options.baseURL === 'string' ? options.baseURL : BUILT_IN[provider]?.base;
    if (base === undefined) return { ok: false, error: `OpenCode's provider '${provider}' has no options.baseURL the proxy could stand in for` };
    const format = (typeof entry.npm === 'string' ? BY_PACKAGE[entry.npm] : undefined) ?? BUILT_IN[provider]?.format ?? 'openai-chat';
    // The person's own OPENCODE_CONFIG_CONTENT, with only this provider's baseURL changed.
    const inline = env.OPENCODE_CONFIG_CONTENT ? (obj(parse(env.OPENCODE_CONFIG_CONTENT)) ?? {}) : {};
    const providers = obj(inline.provider) ?? {};
    const own = obj(providers[provider]) ?? {};
    const layered = {
      ...inline,
      provider: { ...providers, [provider]: { ...own, options: { ...obj(own.options), baseURL: throughProxy(proxyOrigin, base) } } },
    };
    return {
      ok: true,
      value: {
        env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(layered) },
        args: [],
        upstream: originOf(base),
        format,
        describe: `OPENCODE_CONFIG_CONTENT (provider.${provider}.options.baseURL)`,
      },
    };
  },
};
