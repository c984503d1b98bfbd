// Rebuilds the exact body of a request Claude Code sent, from its replay records (2.1.28x+):
// `api-request-shape` holds system + tools by `shapeHash`, `api-request-blob` one message by
// content `hash`, and `api-request` says: the first `keep` messages of request `base`, then the
// blobs in `tail`, with `params` (model, max_tokens, betas, thinking…) and `cacheControl` marks.
import type { FileHandle } from 'node:fs/promises';
import { markHarnessBlock } from '../../engine';
import type { ApiMessage, ContentBlock, Diagnostic } from '../types';
import { readRange } from '../common/lines';
import { RecordParser } from './jsonl';
import { num, obj, str, type RawRecord } from './records';
import type { LineSpan, ReplayKind } from './scan';

export interface RebuiltRequest {
  id: string;
  system?: ContentBlock[];
  tools?: Record<string, unknown>[];
  params: Record<string, unknown>;
  /**
   * The messages sent. `null` where the request named a message that has no blob: Claude Code
   * writes blobs for the user side only, the model's own turns are the assistant records, so the
   * caller fills those positions from the chain. `system`-role messages appear as user-side ones.
   */
  messages: (ApiMessage | null)[];
}

export type RebuildOutcome = { request: RebuiltRequest } | { request: null; diagnostic: Diagnostic };

/** Where the replay records are: an open transcript read backwards, further only when asked (`TailScan`). */
export interface ReplaySource {
  readonly path: string;
  readonly handle: FileHandle;
  find(kind: ReplayKind, key: string, floor?: number): Promise<LineSpan | undefined>;
  /** Looks for several at once (then `find` answers from what was read): one search, however many were never written. */
  findAll(kind: ReplayKind, keys: readonly string[], floor?: number): Promise<void>;
}

/** Reads and parses single lines by position, each at most once. */
class LineLoader {
  private readonly cache = new Map<number, RawRecord | null>();

  constructor(
    private readonly handle: FileHandle,
    private readonly parser: RecordParser,
  ) {}

  async load(span: LineSpan): Promise<RawRecord | null> {
    if (this.cache.has(span.offset)) return this.cache.get(span.offset) ?? null;
    const bytes = await readRange(this.handle, span.offset, span.end);
    const located = this.parser.parse(bytes.subarray(0, bytes.length - 1), span.line, span.offset, span.end);
    this.cache.set(span.offset, located?.record ?? null);
    return located?.record ?? null;
  }
}

/**
 * `boundaries`: offsets of the file's compact boundaries, oldest first. Claude Code writes a blob
 * once and names it again in later requests, but it forgets what it wrote before a compaction when
 * it loads the transcript (replay records are cleared at a boundary). So a blob is looked for back
 * to the last boundary before the oldest request used, no further: a missing blob is normal (the
 * chain's turn is used), and looking for one must not read the whole file.
 */
export async function rebuildRequest(source: ReplaySource, requestId: string, boundaries: readonly number[]): Promise<RebuildOutcome> {
  const { path } = source;
  const loader = new LineLoader(source.handle, new RecordParser(path));
  const failure = (message: string): RebuildOutcome => ({ request: null, diagnostic: { severity: 'info', code: 'request-not-rebuilt', message, path } });
  const lookup = async (kind: ReplayKind, key: string, floor?: number): Promise<{ span: LineSpan; record: RawRecord | null } | null> => {
    const span = await source.find(kind, key, floor);
    return span === undefined ? null : { span, record: await loader.load(span) };
  };
  const last = await lookup('requests', requestId);
  if (last?.record == null) return failure(`api-request ${requestId} not found`);
  // Walk the `base` links back until no earlier message is needed; each step contributes the
  // part of its tail that the later requests kept.
  const segments: { tail: string[]; take: number }[] = [];
  const seen = new Set<string>();
  let current: { span: LineSpan; record: RawRecord | null } | null = last;
  let oldest = last.span.offset;
  let limit = Number.POSITIVE_INFINITY;
  for (;;) {
    if (current?.record == null) return failure(`a base request of ${requestId} is missing`);
    const { record } = current;
    oldest = Math.min(oldest, current.span.offset);
    const id = str(record.id) ?? '';
    if (seen.has(id)) return failure(`api-request base links loop at ${id}`);
    seen.add(id);
    const keep = num(record.keep) ?? 0;
    const tail = Array.isArray(record.tail) ? record.tail.filter((hash): hash is string => typeof hash === 'string') : [];
    if (keep < limit) {
      segments.push({ tail, take: Math.min(tail.length, limit - keep) });
      limit = keep;
    }
    if (limit === 0) break;
    const base = str(record.base);
    current = base === null ? null : await lookup('requests', base);
  }
  const blobFloor = boundaries.filter((offset) => offset <= oldest).at(-1) ?? 0;
  const messages: (ApiMessage | null)[] = [];
  await source.findAll(
    'blobs',
    segments.flatMap(({ tail, take }) => tail.slice(0, take)),
    blobFloor,
  );
  for (const { tail, take } of segments.reverse()) {
    for (const hash of tail.slice(0, take)) {
      const message = obj((await lookup('blobs', hash, blobFloor))?.record?.message);
      messages.push(message === null ? null : sentMessage(message));
    }
  }
  const shape = obj((await lookup('shapes', str(last.record.shapeHash) ?? ''))?.record?.shape);
  const request: RebuiltRequest = { id: requestId, params: obj(last.record.params) ?? {}, messages };
  if (Array.isArray(shape?.system)) request.system = structuredClone(shape.system) as ContentBlock[];
  if (Array.isArray(shape?.tools)) request.tools = structuredClone(shape.tools) as Record<string, unknown>[];
  applyCacheControl(request, last.record.cacheControl);
  return { request };
}

/**
 * A blob as an API message. Newer models get `system`-role messages inside `messages` (rendered
 * reminders; some empty, carrying only `output_config`). They travel with the user's side of the
 * turn, so they are kept as user-side content: the text is what was sent, the role is folded.
 */
function sentMessage(message: Record<string, unknown>): ApiMessage | null {
  if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system') return null;
  const content = structuredClone(message.content);
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as ContentBlock[]) : [];
  // Folded into the user side, but the engine must not take them for something the person typed.
  if (message.role === 'system') blocks.forEach(markHarnessBlock);
  return { role: message.role === 'assistant' ? 'assistant' : 'user', content: blocks };
}

/** `cacheControl: [{path: ['messages', 4, 'content', 0], value}]` marks where cache breakpoints were. */
function applyCacheControl(request: RebuiltRequest, marks: unknown): void {
  if (!Array.isArray(marks)) return;
  for (const mark of marks) {
    const path = obj(mark)?.path;
    const value = obj(mark)?.value;
    if (!Array.isArray(path) || value === null) continue;
    let target: unknown = request;
    for (const step of path)
      target = typeof step === 'string' || typeof step === 'number' ? (target as Record<string | number, unknown> | undefined)?.[step] : undefined;
    const block = obj(target);
    if (block !== null) block.cache_control = value;
  }
}
