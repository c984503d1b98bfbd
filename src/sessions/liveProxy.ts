// How an agent's CLI is pointed at the live proxy for one command, without touching the person's
// configuration: the environment variables and extra arguments it honours, and where it would
// have sent its requests (the proxy's upstream for them). Each adapter that can go through the
// proxy describes its own; `ctxlens run` and Start Live Proxy read it through the registry.
import type { Result } from './types';

/** The wire formats an agent's requests take (the proxy's formats/ read them). */
export type AgentWireFormat = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini';

export interface ProxyPointing {
  /** Set in the command's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Inserted right after the command's name. */
  readonly args: readonly string[];
  /** Where its requests would have gone: the proxy sends them there. */
  readonly upstream: string;
  readonly format: AgentWireFormat;
  /** One line for the terminal: what was set, e.g. "GOOGLE_GEMINI_BASE_URL". */
  readonly describe: string;
}

export interface LiveProxyPointing {
  /** Executable names of the agent's CLI (`codex`, `codex.exe`). */
  readonly commands: readonly string[];
  /**
   * How one run of `args` reaches the proxy at `proxyOrigin` (`http://127.0.0.1:port`, no path):
   * the agent's own base URL with the proxy's origin, so the path it sends stays the provider's.
   * An error says why it cannot be pointed (then the command is not started).
   */
  point(proxyOrigin: string, env: Readonly<Record<string, string | undefined>>, args: readonly string[]): Result<ProxyPointing, string>;
  /**
   * The id the agent's requests carry for a tool call its transcript records as `recordedId` (of the
   * tool `toolName`), when the two differ; absent: the same id. The panel matches the proxy's events
   * (which name calls by what the request carried) to the transcript's items through it.
   */
  wireCallId?(recordedId: string, toolName: string | undefined): string;
  /** For new terminals (environment only), when the agent can be pointed that way: the variables. */
  terminalEnv?(
    proxyOrigin: string,
    env: Readonly<Record<string, string | undefined>>,
  ): { env: Readonly<Record<string, string>>; upstream: string; format: AgentWireFormat; describe: string } | null;
}

/** An origin no proxy listens on, to ask an agent's pointing where its requests would go before a proxy starts. */
export const PLANNING_ORIGIN = 'http://127.0.0.1:1';

/** `base` with the proxy's origin in place of its own: the same path, sent to the proxy. */
export function throughProxy(proxyOrigin: string, base: string): string {
  const url = new URL(base);
  const path = url.pathname.replace(/\/$/, '');
  return `${proxyOrigin.replace(/\/$/, '')}${path}${url.search}`;
}

/** The origin of `base` (scheme, host, port): the proxy forwards the agent's path there as it came. */
export function originOf(base: string): string {
  return new URL(base).origin;
}
