// Claude Code through the live proxy: ANTHROPIC_BASE_URL at the proxy, for one command or a
// terminal. Its requests are the Messages API; the proxy sends them where ANTHROPIC_BASE_URL
// pointed (its path included), else to Anthropic.
import type { LiveProxyPointing } from '../liveProxy';

const ANTHROPIC_DEFAULT = 'https://api.anthropic.com';

const pointing = (proxyOrigin: string, env: Readonly<Record<string, string | undefined>>) => ({
  env: { ANTHROPIC_BASE_URL: proxyOrigin },
  upstream: env.ANTHROPIC_BASE_URL || ANTHROPIC_DEFAULT,
  format: 'anthropic-messages' as const,
  describe: 'ANTHROPIC_BASE_URL',
});

export const claudeCodeLiveProxy: LiveProxyPointing = {
  commands: ['claude', 'claude.exe'],
  point: (proxyOrigin, env) => ({ ok: true, value: { ...pointing(proxyOrigin, env), args: [] } }),
  terminalEnv: pointing,
};
