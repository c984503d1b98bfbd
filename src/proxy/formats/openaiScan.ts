// The byte-level scan both OpenAI formats share: a top-level list of entries (Chat Completions'
// `messages`, Responses' `input`) beside `model`, `stream`, `tools` and `prompt_cache_key`, where an
// entry of an output kind carries its tool call's id and the value the proxy may replace. Only the
// field names and the words of the refusals differ, so one walker takes them as parameters.
import { FAILED, Keys, OPEN_ARRAY, OPEN_OBJECT, QUOTE, type JsonBytes } from '../jsonBytes';
import { agentSessionIdOf } from '../session';
import type { BodyScan, WireFormat } from './format';
import { readString, scanObject } from './scanning';

export interface EntryShape {
  /** The field saying what an entry is (`role`, `type`). */
  readonly kindKey: string;
  /** The field naming the tool call an output answers (`tool_call_id`, `call_id`). */
  readonly idKey: string;
  /** The output's value: text or content parts; any other shape is never replaced. */
  readonly valueKey: string;
  /** Whether an entry of this kind is a tool output. */
  readonly isOutput: (kind: string) => boolean;
  /** "a message", "an input item": for the refusals. */
  readonly what: string;
  /** Refuse an entry without the kind field (Chat Completions requires a role). */
  readonly kindRequired: boolean;
}

export interface ListShape {
  /** The top-level list (`messages`, `input`). */
  readonly listKey: string;
  readonly entry: EntryShape;
  /** The list may be one string instead (Responses' `input`): one message. */
  readonly stringAllowed: boolean;
  /** Why a body without the list is refused, and one whose list is not an array. */
  readonly missing: string;
  readonly notArray: string;
}

const TOP_KEYS = ['model', 'stream', 'tools', 'prompt_cache_key'];

/** One entry: an output's value joins the spans. */
function entry(scanner: JsonBytes, at: number, scan: BodyScan, shape: EntryShape, keys: Keys): number {
  if (scanner.raw[at] !== OPEN_OBJECT) return scanner.refuse(`${shape.what} that is not an object`);
  const read: { kind?: string; id?: string; value?: { start: number; end: number } } = {};
  const end = scanner.object(at, keys, (key, value) => {
    if (key === shape.kindKey || key === shape.idKey) {
      const string = readString(scanner, value);
      if (key === shape.kindKey) read.kind = string.value;
      else read.id = string.value;
      return string.end;
    }
    const after = scanner.skip(value);
    if (key === shape.valueKey && after !== FAILED && (scanner.raw[value] === QUOTE || scanner.raw[value] === OPEN_ARRAY))
      read.value = { start: value, end: after };
    return after;
  });
  if (end === FAILED) return FAILED;
  if (read.kind === undefined && shape.kindRequired) return scanner.refuse(`${shape.what} without a ${shape.kindKey}`);
  if (read.kind !== undefined && shape.isOutput(read.kind) && read.id !== undefined && read.value) scan.toolResults.push({ toolUseId: read.id, ...read.value });
  return end;
}

/** The scan of OpenAI bodies of `shape` (its keys made once). */
export function openAIScan(shape: ListShape): (raw: Buffer) => ReturnType<WireFormat['scan']> {
  const entryKeys = new Keys([shape.entry.kindKey, shape.entry.idKey, shape.entry.valueKey]);
  const topKeys = new Keys([shape.listKey, ...TOP_KEYS]);
  return (raw) => scanBody(raw, shape, entryKeys, topKeys);
}

function scanBody(raw: Buffer, shape: ListShape, entryKeys: Keys, topKeys: Keys): ReturnType<WireFormat['scan']> {
  const scan: BodyScan = {
    model: null,
    stream: false,
    seed: null,
    agentSession: null,
    firstMessage: Buffer.alloc(0),
    hasTools: false,
    toolResults: [],
    messageCount: 0,
  };
  let listed = false;
  const scanned = scanObject(raw, topKeys, (scanner, key, at) => {
    switch (key) {
      case shape.listKey:
        listed = true;
        if (shape.stringAllowed && raw[at] === QUOTE) {
          const end = scanner.stringEnd(at);
          scan.firstMessage = raw.subarray(at, Math.max(at, end));
          scan.messageCount = 1;
          return end;
        }
        if (raw[at] !== OPEN_ARRAY) return scanner.refuse(shape.notArray);
        return scanner.array(at, (start) => {
          const end = entry(scanner, start, scan, shape.entry, entryKeys);
          if (end !== FAILED && scan.messageCount === 0) scan.firstMessage = raw.subarray(start, end);
          scan.messageCount += 1;
          return end;
        });
      case 'tools':
        if (raw[at] !== OPEN_ARRAY) return scanner.refuse('tools of unknown shape');
        return scanner.array(at, (start) => {
          scan.hasTools = true;
          return scanner.skip(start);
        });
      case 'model':
      case 'prompt_cache_key': {
        const string = readString(scanner, at);
        if (key === 'model') scan.model = string.value ?? null;
        else scan.seed = string.value ?? null;
        return string.end;
      }
      case 'stream': {
        const end = scanner.skip(at);
        if (end !== FAILED) scan.stream = scanner.value(at, end) === true;
        return end;
      }
      default:
        return scanner.skip(at);
    }
  });
  if (!scanned.ok) return scanned;
  if (!listed) return { ok: false, error: shape.missing };
  return { ok: true, value: { ...scan, agentSession: agentSessionIdOf(scan.seed) } };
}
