// A line another process wrote, as JSON or nothing: every reader of such lines checks the value it
// gets (zod or by hand) and treats text that is not JSON the same way as a value of the wrong shape.

/** The value `text` holds, or undefined when it is not JSON at all. Never throws. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
