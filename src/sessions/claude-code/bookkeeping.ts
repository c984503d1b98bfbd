// Claude Code's bookkeeping lines (queued prompts, the last prompt, cost and mode state, file-history
// snapshots): never on the conversation chain, and nothing that reads the live context looks at
// them. The tail read tells them by their first bytes and skips them unparsed: a long live context
// holds hundreds, and parsing is most of what reading it costs in a new process.
const TYPES = ['queue-operation', 'last-prompt', 'file-history-snapshot', 'file-history-delta', 'cost-state', 'tools-used', 'atis-latch', 'mode', 'permission-mode'];
/** Claude Code writes these records with `type` first. */
const PREFIXES = TYPES.map((type) => Buffer.from(`{"type":"${type}",`));
const TYPE_KEY = Buffer.from('"type":');
const CLOSING_BRACE = 0x7d;

/**
 * Whether `bytes` (a whole line) is a bookkeeping record. Only a line that ends as a record does
 * (a torn write is parsed, and reported) and has no second `type` key (which JSON.parse would let
 * win): anything else is parsed as before.
 */
export function isBookkeepingLine(bytes: Buffer): boolean {
  if (bytes[bytes.length - 1] !== CLOSING_BRACE) return false;
  const prefix = PREFIXES.find((candidate) => bytes.length > candidate.length && bytes.compare(candidate, 0, candidate.length, 0, candidate.length) === 0);
  return prefix !== undefined && bytes.indexOf(TYPE_KEY, prefix.length) === -1;
}
