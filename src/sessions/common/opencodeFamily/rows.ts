// OpenCode's rows, read defensively: the `session` table's columns, and the JSON `data` of `message`
// and `part` rows (role, tokens, cost, summary; text, tool, step-finish, compaction…). Anything
// malformed becomes null or a default, never a throw: the database belongs to the agent.

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'bigint' ? Number(value) : 0;
}

export function parseJson(text: unknown): Json | null {
  if (typeof text !== 'string') return null;
  try {
    return obj(JSON.parse(text));
  } catch {
    return null;
  }
}

/** A model call's counts as OpenCode stores them on an assistant message and its step-finish part. */
export interface OpencodeTokens {
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
  /** OpenCode's own total (0 when absent); its overflow check uses it before the sum. */
  total: number;
}

export function tokensOf(value: unknown): OpencodeTokens | null {
  const tokens = obj(value);
  if (tokens === null) return null;
  const cache = obj(tokens.cache);
  return {
    input: num(tokens.input),
    output: num(tokens.output),
    reasoning: num(tokens.reasoning),
    cacheRead: num(cache?.read),
    cacheWrite: num(cache?.write),
    total: num(tokens.total),
  };
}

/** What the model was sent: `input` excludes the cached part (checked against the stand-in's usage). */
export const promptOf = (tokens: OpencodeTokens): number => tokens.input + tokens.cacheRead + tokens.cacheWrite;

export interface SessionRow {
  id: string;
  parentId: string | null;
  directory: string;
  title: string;
  timeCreated: number;
  timeUpdated: number;
  /** `{"id":…,"providerID":…}` as OpenCode stores it; null before the first call. */
  model: string | null;
}

export function sessionRowOf(row: Json): SessionRow | null {
  const id = str(row.id);
  if (id === null) return null;
  const model = parseJson(row.model);
  const modelId = str(model?.id);
  return {
    id,
    parentId: str(row.parent_id),
    directory: str(row.directory) ?? '',
    title: str(row.title) ?? '',
    timeCreated: num(row.time_created),
    timeUpdated: num(row.time_updated),
    model: modelId === null ? null : `${str(model?.providerID) ?? ''}${str(model?.providerID) ? '/' : ''}${modelId}`,
  };
}

export interface MessageRow {
  id: string;
  timeCreated: number;
  data: Json;
  parts: PartRow[];
}

export interface PartRow {
  id: string;
  data: Json;
}

export const isoOf = (ms: number): string | null => (ms > 0 ? new Date(ms).toISOString() : null);
