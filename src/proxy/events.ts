// The live proxy's event stream: one line per request the agent sent through it, written by the
// proxy (a CLI process or the extension host) and followed by the panel and tests. One module owns
// the file's place, the shape of a line (zod, checked on both sides), the writer and the reader, so
// writer and reader cannot drift apart. A line holds figures, ids and reasons: never a request
// body, a header or a tool output.
import { appendFile, chmod, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { hookEventsPath } from '../contracts/hookEvents';
import type { Result } from '../sessions/types';
import { parseJson } from '../base/json';
import { FORMAT_NAMES } from './formats/format';

/** `$XDG_STATE_HOME/context-lens/proxy` (or `~/.local/state/...`): the proxy's private folder. */
export function proxyStateDir(env: Readonly<Record<string, string | undefined>>): string {
  // The same state folder as the hook events, by the same XDG rule.
  return join(dirname(hookEventsPath(env)), 'proxy');
}

export const EVENTS_FILE = 'events.jsonl';

export function proxyEventsPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(proxyStateDir(env), EVENTS_FILE);
}

export const FILE_MODE = 0o600;
export const FOLDER_MODE = 0o700;

/** Longest reason or error a line keeps: one long upstream error must not fill the file. */
export const EVENT_TEXT_MAX = 300;

const text = z.string().transform((value) => (value.length > EVENT_TEXT_MAX ? `${value.slice(0, EVENT_TEXT_MAX - 1)}…` : value));
const count = z.number().int().nonnegative();

/** What the proxy did with a request. */
export const PROXY_ACTIONS = [
  /** Not a Messages call (count_tokens, probes): bytes forwarded as they came. */
  'passthrough',
  /** Below the trigger, nothing sticky to apply: the original bytes went upstream. */
  'unchanged',
  /** Earlier edits re-applied, nothing new. */
  'sticky',
  /** A new batch of edits (plus the earlier ones). */
  'edited',
  /** Something went wrong or took too long: the original bytes went upstream. */
  'failed-open',
] as const;
export type ProxyAction = (typeof PROXY_ACTIONS)[number];

/** The engine's gentle tiers, and `choice`: a tool result the person dropped in the panel. */
export const EDIT_TIERS = ['supersede', 'age-clear', 'dedupe', 'truncate', 'choice'] as const;

/** One new edit: which tool result, which tier, where the original can be recalled. */
export const editSchema = z.object({
  toolUseId: z.string().max(200),
  tier: z.enum(EDIT_TIERS),
  /** `ctx-lens:<hash>`: what the stub names and `recall` takes. */
  ref: z.string().max(100),
  tokensBefore: count,
  tokensAfter: count,
});
export type ProxyEdit = z.infer<typeof editSchema>;

/** Exact usage from the response (message_start/message_delta or the JSON body). */
export const usageSchema = z.object({
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  cacheCreationTokens: count,
});
export type ProxyUsage = z.infer<typeof usageSchema>;

/**
 * Does a batch pay? At the rates of the request's model: the kept context written to the cache once
 * instead of read, the removed tokens no longer read on every call after (pricing/breakEven.ts).
 */
export const batchBreakEvenSchema = z.object({
  model: z.string().max(100),
  oneOffUsd: z.number().nonnegative(),
  savingPerCallUsd: z.number().nonnegative(),
  /** null: it never pays off. */
  breakEvenCalls: count.nullable(),
  /** "costs $0.41 once, saves $0.12 per call: pays off after 4 calls" */
  sentence: text,
});
export type BatchBreakEven = z.infer<typeof batchBreakEvenSchema>;

export const proxyEventSchema = z.object({
  v: z.literal(1),
  time: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  /** Short hash naming the agent session (see session.ts); empty for passthrough. */
  session: z.string().max(64),
  /**
   * The agent's own session id (Claude Code's, from the request's metadata), so the panel shows the
   * session it follows; null when unknown (a request the proxy did not need to read, older lines).
   */
  agentSession: z.string().max(100).nullable().default(null),
  /**
   * The id of the last tool call the request carried (its output's `tool_call_id`, `call_id`,
   * `tool_use_id` or a functionResponse's `id`): the agent's transcript records the same id, so the
   * panel attributes a request that names no session to the session holding that call. Null when
   * it carried none; absent in lines written before it existed.
   */
  toolCall: z.string().max(200).nullable().optional(),
  /** The wire format that read the request (null: none did, or a line written before formats existed). */
  format: z.enum(FORMAT_NAMES).nullable().optional(),
  method: z.string().max(16),
  /** The path without its query string. */
  path: z.string().max(200),
  action: z.enum(PROXY_ACTIONS),
  /** Why: the fail-open cause, the batch trigger, a compaction request's reason. */
  reason: text.nullable(),
  model: z.string().max(100).nullable(),
  stream: z.boolean(),
  /** Our estimate of what the agent sent and of what we sent (equal when nothing changed). */
  agentTokens: count,
  sentTokens: count,
  /** Earlier edits applied again to this request. */
  stickyEdits: count,
  /** Edits that reached the model for the first time with this request. */
  newEdits: z.array(editSchema).max(10_000),
  /**
   * With the request that carried a batch's edits, when its model has a price: whether the batch
   * pays. Absent otherwise, and in lines written before it existed.
   */
  breakEven: batchBreakEvenSchema.optional(),
  /** Tool results whose earlier edit was undone (kept in the panel, or a drop taken back): the original goes again. */
  restored: z.array(z.string().max(200)).max(10_000).default([]),
  /** Time the proxy added before forwarding (parse, engine, serialise). */
  addedMs: z.number().nonnegative(),
  status: z.number().int().nullable(),
  usage: usageSchema.nullable(),
  /** The response failed (upstream gone, client gone), or null. */
  error: text.nullable(),
});
export type ProxyEvent = z.infer<typeof proxyEventSchema>;

/** A line as written (without its newline); throws on a programming error (an invalid event). */
export function formatProxyEvent(event: ProxyEvent): string {
  return JSON.stringify(proxyEventSchema.parse(event));
}

/** A line of the file, or null for a torn, foreign or invalid one. Never throws. */
export function parseProxyEvent(line: string): ProxyEvent | null {
  const parsed = proxyEventSchema.safeParse(parseJson(line));
  return parsed.success ? parsed.data : null;
}

/** Where the event file is rotated: about 20,000 requests of events. */
export const MAX_EVENTS_BYTES = 8 * 1024 * 1024;

/** Creates `folder` 0700 (and tightens it when we just made it); files in it are 0600. */
export async function ensurePrivateDir(folder: string): Promise<void> {
  const created = await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  if (created !== undefined) await chmod(folder, FOLDER_MODE);
}

/**
 * Appends events in order, one write at a time. A failed write is reported once through `onError`
 * and never reaches the request it describes: the proxy's job is the agent's traffic.
 */
export class ProxyEventWriter {
  private queue: Promise<void> = Promise.resolve();
  private ready: Promise<void> | undefined;
  /** The file's size as far as we know (read once, then counted as we append). */
  private size: number | undefined;
  /** A write failed (a full disk): it may have left half a line, which the next one must not continue. */
  private torn = false;

  /**
   * Past `maxBytes` the file is moved to `<path>.1` (replacing the one before) and a new one begun:
   * the panel reads only the tail, and a week of traffic must not grow a file without end.
   */
  constructor(
    readonly path: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly maxBytes = MAX_EVENTS_BYTES,
  ) {}

  append(event: ProxyEvent): void {
    let line: string;
    try {
      line = `${formatProxyEvent(event)}\n`;
    } catch (error) {
      this.onError(error);
      return;
    }
    this.queue = this.queue.then(async () => {
      try {
        this.ready ??= ensurePrivateDir(dirname(this.path));
        await this.ready;
        this.size ??= await stat(this.path).then(
          (stats) => stats.size,
          () => 0,
        );
        if (this.size + line.length > this.maxBytes) {
          await rename(this.path, `${this.path}.1`).catch(() => undefined);
          this.size = 0;
        }
        const text = this.torn ? `\n${line}` : line;
        await appendFile(this.path, text, { mode: FILE_MODE });
        this.torn = false;
        this.size += Buffer.byteLength(text);
      } catch (error) {
        this.torn = true;
        this.size = undefined;
        this.onError(error);
      }
    });
  }

  /** Resolves when every event appended so far is on disk (or failed). */
  flush(): Promise<void> {
    return this.queue;
  }
}

/** Every valid event of the file, oldest first; a missing file reads as none. */
export async function readProxyEvents(path: string): Promise<Result<ProxyEvent[], string>> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: [] };
    return { ok: false, error: `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const events = content.split('\n').flatMap((line) => {
    const event = line.trim() === '' ? null : parseProxyEvent(line);
    return event ? [event] : [];
  });
  return { ok: true, value: events };
}
