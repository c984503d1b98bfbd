// The Messages request read without building it. One pass over the JSON bytes checks the shape the
// proxy edits and notes where each tool result's `content` lies, so a request that only repeats the
// session's sticky edits goes upstream as the agent's own bytes with the stubs spliced in. Parsing
// and re-serialising a 100k-token request took about 4 ms and, through the garbage it leaves, most
// of the proxy's p99; the scan (jsonBytes.ts) takes about 0.5 ms. The parts the proxy reads (the
// top-level fields, every message, its role and content blocks) are checked as JSON.parse would read
// them; a body the API would refuse for a bad escape elsewhere goes as the agent sent it.
import type { Result } from '../sessions/types';
import { FAILED, JsonBytes, Keys, NOT_READ, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './jsonBytes';
import type { BodyScan, ToolResultSpan } from './formats/format';
import { agentSessionOf, type StickyEdit } from './session';

export type { BodyScan, ToolResultSpan } from './formats/format';

/** The Anthropic scan keeps `metadata.user_id` as JSON.parse reads it (undefined without one). */
export interface MessagesScan extends BodyScan {
  userId: unknown;
}

const TOP = new Keys(['messages', 'model', 'stream', 'metadata', 'system', 'tools']);
const MESSAGE = new Keys(['role', 'content']);
const BLOCK = new Keys(['type', 'tool_use_id', 'content']);
const METADATA = new Keys(['user_id']);
/** Values the scan only compares: a block's type and a message's role. */
const TOOL_RESULT = new Keys(['tool_result']);
const ROLES = new Keys(['user', 'assistant', 'system']);

/** What the scan read of one content block. */
interface BlockRead {
  /** Its `type` is a string. */
  typed: boolean;
  /** That string is "tool_result". */
  toolResult: boolean;
  toolUseId: unknown;
  /** Where its `content` value lies, if it has one. */
  content: { start: number; end: number } | null;
  /** Where its closing '}' is. */
  close: number;
}

/** A list of content blocks, each an object with a string `type`; `onBlock` hears about each one read. */
function blockList(scanner: JsonBytes, at: number, reason: string, onBlock?: (block: BlockRead) => void): number {
  if (scanner.raw[at] !== OPEN_ARRAY) return scanner.refuse(reason);
  return scanner.array(at, (start) => {
    const block: BlockRead = { typed: false, toolResult: false, toolUseId: undefined, content: null, close: start };
    if (scanner.raw[start] !== OPEN_OBJECT) return scanner.refuse(reason);
    const end = scanner.object(start, BLOCK, (key, value) => {
      const after = scanner.skip(value);
      if (after === FAILED) return FAILED;
      if (key === 'type') {
        block.typed = scanner.raw[value] === QUOTE;
        block.toolResult = block.typed && TOOL_RESULT.match(scanner, value, after) === 0;
      } else if (key === 'tool_use_id') block.toolUseId = scanner.value(value, after);
      else if (key === 'content') block.content = { start: value, end: after };
      return after;
    });
    if (end === FAILED) return FAILED;
    if (!block.typed) return scanner.refuse(reason);
    block.close = end - 1;
    onBlock?.(block);
    return end;
  });
}

const NO_ROLE = 'a message without a user, assistant or system role';

/** One message; the tool results of a user's message join `results` (its role may come after its content). */
function message(scanner: JsonBytes, at: number, results: ToolResultSpan[]): number {
  // The role as its index in ROLES (NOT_READ: none, or not one of them).
  const read = { role: NOT_READ, content: false, results: [] as ToolResultSpan[] };
  if (scanner.raw[at] !== OPEN_OBJECT) return scanner.refuse(NO_ROLE);
  const end = scanner.object(at, MESSAGE, (key, value) => {
    if (key === 'role') {
      const after = scanner.skip(value);
      if (after !== FAILED && scanner.raw[value] === QUOTE) read.role = ROLES.match(scanner, value, after);
      return after;
    }
    if (key !== 'content') return scanner.skip(value);
    read.content = true;
    if (scanner.raw[value] === QUOTE) return scanner.stringEnd(value);
    return blockList(scanner, value, 'a message content of unknown shape', (block) => {
      if (!block.toolResult) return;
      // The id as applyEdits reads it; a result without content gets one inserted before its '}'.
      const { start, end } = block.content ?? { start: block.close, end: block.close };
      read.results.push({ toolUseId: String(block.toolUseId), start, end });
    });
  });
  if (end === FAILED) return FAILED;
  const role = ROLES.names[read.role];
  if (role === undefined) return scanner.refuse(NO_ROLE);
  if (!read.content && role !== 'system') return scanner.refuse('a message content of unknown shape');
  if (role === 'user') results.push(...read.results);
  return end;
}

/** The request's shape and the places the proxy may edit, or why it cannot read it. */
export function scanMessagesBody(raw: Buffer): Result<MessagesScan, string> {
  const scanner = new JsonBytes(raw);
  const scan: MessagesScan = {
    model: null,
    stream: false,
    userId: undefined,
    seed: undefined,
    agentSession: null,
    firstMessage: Buffer.alloc(0),
    hasTools: false,
    toolResults: [],
    messageCount: 0,
  };
  let messages = false;
  const start = scanner.space(0);
  if (raw[start] !== OPEN_OBJECT) return { ok: false, error: raw[start] === OPEN_ARRAY ? 'no messages array' : 'body is not a JSON object' };
  const end = scanner.object(start, TOP, (key, value) => {
    switch (key) {
      case 'messages':
        messages = raw[value] === OPEN_ARRAY;
        if (!messages) return scanner.refuse('no messages array');
        return scanner.array(value, (at) => {
          const after = message(scanner, at, scan.toolResults);
          if (after !== FAILED && scan.firstMessage.length === 0) scan.firstMessage = raw.subarray(at, after);
          scan.messageCount += 1;
          return after;
        });
      case 'system':
        return raw[value] === QUOTE ? scanner.stringEnd(value) : blockList(scanner, value, 'a system prompt of unknown shape');
      case 'tools':
        if (raw[value] !== OPEN_ARRAY) return scanner.refuse('tools of unknown shape');
        return scanner.array(value, (at) => {
          scan.hasTools = true;
          return raw[at] === OPEN_OBJECT ? scanner.skip(at) : scanner.refuse('tools of unknown shape');
        });
      case 'metadata':
        if (raw[value] !== OPEN_OBJECT) return scanner.refuse('metadata of unknown shape');
        return scanner.object(value, METADATA, (inner, at) => {
          const after = scanner.skip(at);
          if (inner === 'user_id' && after !== FAILED) scan.userId = scanner.value(at, after);
          return after;
        });
      default: {
        const after = scanner.skip(value);
        if (after === FAILED) return FAILED;
        if (key === 'model' && raw[value] === QUOTE) scan.model = String(scanner.value(value, after)).slice(0, 100);
        if (key === 'stream') scan.stream = scanner.value(value, after) === true;
        return after;
      }
    }
  });
  if (end === FAILED) return { ok: false, error: scanner.reason };
  if (scanner.space(end) !== raw.length) return { ok: false, error: `body is not JSON (more after the object at byte ${end})` };
  if (!messages) return { ok: false, error: 'no messages array' };
  return { ok: true, value: { ...scan, seed: scan.userId, agentSession: agentSessionOf(scan.userId) } };
}

export interface Splice {
  /** Tool results replaced by the session's edits. */
  applied: number;
  /** Bytes the edits take out of the request. */
  saved: number;
  used: StickyEdit[];
  /**
   * The request with the stubs in place of those results' content, in the order they are sent: views
   * of the agent's bytes between the stubs' bytes, never joined into a copy (only `raw` without edits).
   */
  pieces: readonly Buffer[];
}

/** A stub's bytes, encoded once: the same edit goes into every later request of its session (one format per session). */
const encodedStubs = new WeakMap<StickyEdit, Buffer>();
const CONTENT_KEY = Buffer.from(',"content":', 'latin1');

/** A tool result's content as the Messages API reads it: a JSON string. */
export const jsonStringStub = (text: string): Buffer => Buffer.from(JSON.stringify(text), 'utf8');

function encodedStub(edit: StickyEdit, encode: (text: string) => Buffer): Buffer {
  let bytes = encodedStubs.get(edit);
  if (!bytes) {
    bytes = encode(edit.text);
    encodedStubs.set(edit, bytes);
  }
  return bytes;
}

/** The session's edits spliced into the agent's bytes: the same request applyEdits builds, without parsing it. */
export function spliceEdits(
  raw: Buffer,
  scan: Pick<BodyScan, 'toolResults'>,
  edits: ReadonlyMap<string, StickyEdit>,
  encode: (text: string) => Buffer = jsonStringStub,
): Splice {
  const pieces: Buffer[] = [];
  const used: StickyEdit[] = [];
  let from = 0;
  let saved = 0;
  for (const result of scan.toolResults) {
    const edit = edits.get(result.toolUseId);
    if (!edit) continue;
    pieces.push(raw.subarray(from, result.start));
    // A result without content gets the key too, before its closing '}'.
    if (result.start === result.end) {
      pieces.push(CONTENT_KEY);
      saved -= CONTENT_KEY.length;
    }
    const stub = encodedStub(edit, encode);
    pieces.push(stub);
    saved += result.end - result.start - stub.length;
    from = result.end;
    used.push(edit);
  }
  pieces.push(raw.subarray(from));
  return { applied: used.length, saved, used, pieces: used.length === 0 ? [raw] : pieces };
}
