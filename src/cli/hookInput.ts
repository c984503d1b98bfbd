// Reading what Claude Code pipes to a hook or status line command. Kept apart from `io.ts` so the
// status line bundle can use it without pulling in the session adapters. Both run on every
// compaction or redraw with Claude Code waiting, so the input is bounded before it is parsed: a
// megabyte at most (Claude Code sends a few hundred bytes) and a shallow nesting (a deep one
// costs JSON.parse seconds and hundreds of megabytes).

/** Claude Code's hook and status line inputs are well under a kilobyte; this leaves room for long paths and instructions. */
export const MAX_STDIN_BYTES = 1024 * 1024;
/** Claude Code's inputs nest four levels; anything deeper is not its input. */
export const MAX_JSON_DEPTH = 64;

/** The text on stdin, or why it was not read whole (over `maxBytes`: reading stops there). */
export async function readStdin(stdin: NodeJS.ReadableStream = process.stdin, maxBytes = MAX_STDIN_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    length += bytes.length;
    // Leaving the loop destroys the stream: the writer gets EPIPE instead of us holding its flood.
    if (length > maxBytes) throw new Error(`input on stdin is larger than ${maxBytes / 1024 / 1024} MiB: not read (Claude Code sends well under a kilobyte)`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * JSON.parse after a cheap scan of the nesting depth (brackets outside strings): input nested past
 * `MAX_JSON_DEPTH` is refused with a reason before the parser spends seconds and memory on it.
 */
export function parseInputJson(text: string): unknown {
  const depth = nestingOver(text, MAX_JSON_DEPTH);
  if (depth !== null) throw new Error(`input JSON nests deeper than ${MAX_JSON_DEPTH} levels (at character ${depth}): not parsed`);
  return JSON.parse(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The offset where the nesting first passes `limit`, or null when it never does. */
function nestingOver(text: string, limit: number): number | null {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === BACKSLASH) at++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return at;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return null;
}
