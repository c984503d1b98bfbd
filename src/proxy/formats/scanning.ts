// What the formats' byte-level scans share (jsonBytes.ts does the reading): the body is one JSON
// object, read key by key, with nothing after it.
import type { Result } from '../../sessions/types';
import { FAILED, JsonBytes, type Keys, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../jsonBytes';
import { agentSessionIdOf } from '../session';

/** The top-level object's members through `member`; the scan's reason when it is not one object. */
export function scanObject(raw: Buffer, keys: Keys, member: (scanner: JsonBytes, key: string, at: number) => number): Result<JsonBytes, string> {
  const scanner = new JsonBytes(raw);
  const start = scanner.space(0);
  if (raw[start] !== OPEN_OBJECT) return { ok: false, error: raw[start] === OPEN_ARRAY ? 'body is a JSON array, not an object' : 'body is not a JSON object' };
  const end = scanner.object(start, keys, (key, at) => member(scanner, key, at));
  if (end === FAILED) return { ok: false, error: scanner.reason };
  if (scanner.space(end) !== raw.length) return { ok: false, error: `body is not JSON (more after the object at byte ${end})` };
  return { ok: true, value: scanner };
}

/** A string value read (short ones: a model, an id, a role), else undefined; the index after it either way. */
export function readString(scanner: JsonBytes, at: number, max = 200): { end: number; value: string | undefined } {
  const end = scanner.skip(at);
  if (end === FAILED || scanner.raw[at] !== QUOTE) return { end, value: undefined };
  const value = scanner.value(at, end);
  return { end, value: typeof value === 'string' ? value.slice(0, max) : undefined };
}

/** Longest tool call id kept (the events' limit). */
const MAX_CALL_ID = 200;

/**
 * The value of the last `"key":"…"` member of a body, from its end: the marker's quotes are bare, so
 * it cannot match inside a string value (a tool output's quotes are escaped there). Compact JSON
 * only, as every agent sends; null when absent or not a plain short string.
 */
export function lastStringMemberInBody(raw: Buffer, key: string): string | null {
  const marker = `"${key}":"`;
  const at = raw.lastIndexOf(marker);
  if (at === -1) return null;
  const start = at + marker.length;
  const end = raw.indexOf(QUOTE, start);
  if (end === -1 || end - start > MAX_CALL_ID || end === start) return null;
  const value = raw.toString('utf8', start, end);
  // An escape would need JSON's reading; ids have none.
  return value.includes('\\') ? null : value;
}

/** A top-level string member found from the end of a body not scanned (`"key":"<uuid>"`), as an agent session id. */
export function sessionKeyInBody(raw: Buffer, key: string): string | null {
  const marker = `"${key}":"`;
  const at = raw.lastIndexOf(marker);
  if (at === -1) return null;
  const value = raw.toString('latin1', at + marker.length, at + marker.length + 40);
  return agentSessionIdOf(value.split('"')[0]);
}
