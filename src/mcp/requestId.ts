// The id of a JSON-RPC request read from the head of its line only: a line too long to keep
// (transport.ts) still gets its error answered under its own id, as JSON-RPC asks whenever the id
// can be told, so the caller waiting on that id hears back. Requests put `id` before `params`
// (where the bulk is), so the head holds it; a scan bounded by the head's length, never a parse.

/** How much of a line's head is scanned for its id. */
export const ID_SCAN_BYTES = 64 * 1024;

/** The top-level `id` (a string or a number) of the JSON object `head` begins, or null when the head does not tell it. */
export function requestIdFromHead(head: string): string | number | null {
  let depth = 0;
  let expectingKey = false;
  for (let at = 0; at < head.length; at++) {
    const char = head[at];
    if (char === '"') {
      const end = stringEnd(head, at);
      if (end === -1) return null;
      if (depth === 1 && expectingKey) {
        const key = stringAt(head, at, end);
        const colon = skipSpace(head, end + 1);
        if (head[colon] !== ':') return null;
        if (key === null) return null;
        if (key === 'id') return idValue(head, skipSpace(head, colon + 1));
        expectingKey = false;
        at = colon;
      } else at = end;
    } else if (char === '{' || char === '[') {
      depth++;
      expectingKey = depth === 1 && char === '{';
      if (depth === 1 && char !== '{') return null;
    } else if (char === '}' || char === ']') {
      depth--;
      if (depth <= 0) return null;
    } else if (char === ',' && depth === 1) expectingKey = true;
    else if (depth === 0 && !/\s/.test(char ?? '')) return null;
  }
  return null;
}

/** Index of the quote closing the string that opens at `start`, or -1 when the head ends first. */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at;
  }
  return -1;
}

/** The JSON string between the quotes at `start` and `end`; null when its escapes are not JSON's. */
function stringAt(text: string, start: number, end: number): string | null {
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return null;
  }
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at] as string)) at++;
  return at;
}

/** A string or a number starting at `at`, complete within the head; anything else is no id. */
function idValue(text: string, at: number): string | number | null {
  if (text[at] === '"') {
    const end = stringEnd(text, at);
    return end === -1 ? null : stringAt(text, at, end);
  }
  const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}])/.exec(text.slice(at, at + 64));
  return number === null ? null : Number(number[0]);
}
