// Gemini CLI through the live proxy: GOOGLE_GEMINI_BASE_URL (honoured with an API key) at the
// proxy, for one command or a terminal; the proxy sends the requests where it pointed before, else
// to Google's API. Signed in with Google (Code Assist), the CLI talks to another service the proxy
// does not stand in for.
import { originOf, throughProxy, type LiveProxyPointing } from '../liveProxy';

const GEMINI_DEFAULT = 'https://generativelanguage.googleapis.com';

const pointing = (proxyOrigin: string, env: Readonly<Record<string, string | undefined>>) => {
  const base = env.GOOGLE_GEMINI_BASE_URL || GEMINI_DEFAULT;
  return {
    env: { GOOGLE_GEMINI_BASE_URL: throughProxy(proxyOrigin, base) },
    upstream: originOf(base),
    format: 'gemini' as const,
    describe: 'GOOGLE_GEMINI_BASE_URL',
  };
};

/**
 * Gemini CLI 0.61 records each call as `<tool>__<id>` and strips that prefix before it sends the
 * history (its stripToolCallIdPrefixes), so a request carries the bare id; a call without a tool
 * name goes by `generic_tool`, as in the CLI.
 */
function wireCallId(recordedId: string, toolName: string | undefined): string {
  const prefix = `${toolName?.trim() || 'generic_tool'}__`;
  return recordedId.startsWith(prefix) ? recordedId.slice(prefix.length) : recordedId;
}

export const geminiLiveProxy: LiveProxyPointing = {
  commands: ['gemini', 'gemini.exe'],
  wireCallId,
  point: (proxyOrigin, env) => ({ ok: true, value: { ...pointing(proxyOrigin, env), args: [] } }),
  terminalEnv: pointing,
};
