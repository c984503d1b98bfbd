// Codex CLI through the live proxy for one command: its model provider's base URL, overridden for
// that run by a `-c` flag (a config layer Codex applies over config.toml, which is only read). The
// built-in `openai` provider takes `openai_base_url`; a provider of the person's own
// (`[model_providers.<id>]`) takes `model_providers.<id>.base_url`. Requests are the Responses API.
// Not covered: a `--profile` that picks another provider, ChatGPT sign-in (its own backend URL).
// No terminal variable points it (0.169.0 ignores OPENAI_BASE_URL, checked against a stand-in):
// new terminals cannot, `ctxlens run -- codex` can. The built-in provider tries a WebSocket first,
// which the proxy does not carry: Codex falls back to HTTPS by itself (with a warning).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { originOf, throughProxy, type LiveProxyPointing } from '../liveProxy';
import { resolveCodexHomes } from './paths';

const OPENAI_DEFAULT = 'https://api.openai.com/v1';

/** The config.toml keys this needs, read line by line: a top-level string, or one in a table. */
export function tomlString(text: string, table: string | null, key: string): string | undefined {
  let current: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header?.[1] !== undefined) {
      current = header[1].replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      continue;
    }
    if (current !== table) continue;
    const value = new RegExp(`^"?${key.replace(/[.]/g, '\\.')}"?\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (value?.[1] !== undefined) return value[1];
  }
  return undefined;
}

/** The `-c key=value` overrides on the command line (`-c k=v`, `--config k=v`, `-ck=v`). */
function overrides(args: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const value = arg === '-c' || arg === '--config' ? args[++index] : arg.startsWith('--config=') ? arg.slice(9) : undefined;
    const pair = value === undefined ? null : /^([^=]+)=(.*)$/.exec(value);
    if (pair?.[1] !== undefined && pair[2] !== undefined) found.set(pair[1].trim(), pair[2].trim().replace(/^"(.*)"$/, '$1'));
  }
  return found;
}

export const codexLiveProxy: LiveProxyPointing = {
  commands: ['codex', 'codex.exe'],
  point(proxyOrigin, env, args) {
    const [home] = resolveCodexHomes({ env });
    let config = '';
    try {
      config = home === undefined ? '' : readFileSync(join(home, 'config.toml'), 'utf8');
    } catch {
      // No config: the built-in provider.
    }
    const flags = overrides(args);
    const provider = flags.get('model_provider') ?? tomlString(config, null, 'model_provider') ?? 'openai';
    if (provider === 'openai') {
      const base = flags.get('openai_base_url') ?? tomlString(config, null, 'openai_base_url') ?? OPENAI_DEFAULT;
      return {
        ok: true,
        value: {
          env: {},
          args: ['-c', `openai_base_url=${JSON.stringify(throughProxy(proxyOrigin, base))}`],
          upstream: originOf(base),
          format: 'openai-responses',
          describe: '-c openai_base_url',
        },
      };
    }
    const key = `model_providers.${provider}.base_url`;
    const base = flags.get(key) ?? tomlString(config, `model_providers.${provider}`, 'base_url');
    if (base === undefined)
      return {
        ok: false,
        error: `Codex's model provider '${provider}' has no base_url in ${home ?? 'CODEX_HOME'}/config.toml or -c: the proxy cannot tell where its requests go`,
      };
    if (tomlString(config, `model_providers.${provider}`, 'wire_api') === 'chat')
      return {
        ok: true,
        value: {
          env: {},
          args: ['-c', `${key}=${JSON.stringify(throughProxy(proxyOrigin, base))}`],
          upstream: originOf(base),
          format: 'openai-chat',
          describe: `-c ${key}`,
        },
      };
    return {
      ok: true,
      value: {
        env: {},
        args: ['-c', `${key}=${JSON.stringify(throughProxy(proxyOrigin, base))}`],
        upstream: originOf(base),
        format: 'openai-responses',
        describe: `-c ${key}`,
      },
    };
  },
};
