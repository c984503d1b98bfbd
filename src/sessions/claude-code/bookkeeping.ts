// Claude Code's bookkeeping lines (queued prompts, the last prompt, cost and mode state, file-history
// snapshots): never on the conversation chain, and nothing that reads the live context looks at
// them. The tail read tells them by their first bytes and skips them unparsed: a long live context
// holds hundreds, and parsing is most of what reading it costs in a new process.
const TYPES = new Set([
  'queue-operation',
  'last-prompt',
  'file-history-snapshot',
  'file-history-delta',
  'cost-state',
  'tools-used',
  'atis-latch',
  'mode',
  'permission-mode',
]);
/** Claude Code writes these records with `type` first. */
const TYPE_FIRST = Buffer.from('{"type":"');
/** Longer than any name in TYPES: where the search for the closing quote gives up. */
const LONGEST_TYPE = 32;
const TYPE_KEY = Buffer.from('"type":');
const QUOTE = 0x22;
const COMMA = 0x2c;
const CLOSING_BRACE = 0x7d;

/**
 * Whether `bytes` (a whole line) is a bookkeeping record. Only a line that ends as a record does
 * (a torn write is parsed, and reported) and has no second `type` key (which JSON.parse would let
 * win): anything else is parsed as before. Called for every line of the tail, so most lines (chain
 * records start `{"parentUuid"`) are told apart by one comparison of their first bytes.
 */
export function isBookkeepingLine(bytes: Buffer): boolean {
  if (
    bytes[bytes.length - 1] !== CLOSING_BRACE ||
    bytes[2] !== TYPE_FIRST[2] ||
    bytes.compare(TYPE_FIRST, 0, TYPE_FIRST.length, 0, Math.min(bytes.length, TYPE_FIRST.length)) !== 0
  )
    return false;
  const close = bytes.subarray(0, TYPE_FIRST.length + LONGEST_TYPE + 1).indexOf(QUOTE, TYPE_FIRST.length);
  if (close === -1 || close - TYPE_FIRST.length > LONGEST_TYPE || bytes[close + 1] !== COMMA) return false;
  return TYPES.has(bytes.toString('latin1', TYPE_FIRST.length, close)) && bytes.indexOf(TYPE_KEY, close) === -1;
}
