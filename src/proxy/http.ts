// The HTTP side of the loopback proxy that every request goes through before and after its wire
// format: whom it serves (loopback Host only), what it may ask for (origin-form paths), and which
// headers cross the hop.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Connection-level headers are the hop's own (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-authenticate',
  'proxy-authorization',
]);
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A URL's hostname is this machine's loopback, as the proxy serves it (and `ctxlens run --via` sends to it). */
export const isLoopbackHostname = (hostname: string): boolean => LOCAL_HOSTS.has(hostname.toLowerCase());

/** The Host header names us (loopback, any port or ours); anything else may be a rebinding page. */
export function isLocalHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!match?.[1] || !isLoopbackHostname(match[1])) return false;
  return match[2] === undefined || Number(match[2]) === port;
}

/**
 * The path and query a request asks for, in origin form with dot segments resolved, or null for any
 * other form (`http://host/…`, `//host/…`, `*`): what goes upstream stays under its base path.
 */
export function requestTarget(url: string | undefined): { path: string; search: string } | null {
  const raw = url ?? '/';
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    const parsed = new URL(raw, 'http://proxy.invalid');
    return parsed.host === 'proxy.invalid' ? { path: parsed.pathname, search: parsed.search } : null;
  } catch {
    return null;
  }
}

export function forwardHeaders(headers: IncomingHttpHeaders, upstreamHost: string, body: { changed: boolean; length: number }): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'host') continue;
    if (body.changed && (name === 'content-length' || name === 'content-encoding')) continue;
    out[name] = value;
  }
  out.host = upstreamHost;
  if (body.changed) out['content-length'] = String(body.length);
  return out;
}

export function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/**
 * Where a request goes upstream: under the upstream's base path, unless its path already starts
 * there (an OpenAI-style base URL ending in `/v1` and a client that sends `/v1/responses`).
 */
export function upstreamTarget(basePath: string, path: string, search: string): string {
  const base = basePath.replace(/\/$/, '');
  return `${base !== '' && path.startsWith(`${base}/`) ? path : `${base}${path}`}${search}`;
}
