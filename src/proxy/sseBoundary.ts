// Server-sent events reach the agent whole. The upstream's chunks cut events anywhere; the proxy
// passes on everything up to the last blank line and holds the rest until its event is complete.
// So when the upstream dies mid-event, what the client got ends at an event boundary and the
// proxy's error event parses as one (appended to half a `data:` line, the SDK fails to parse the
// JSON instead of raising a clean API error). Complete events go on at once: no added latency.

/** An event larger than this goes on in pieces rather than being held in memory whole. */
const MAX_HELD_BYTES = 1024 * 1024;

const LF2 = Buffer.from('\n\n');
const CRLF2 = Buffer.from('\r\n\r\n');

export class SseBoundary {
  private held: Buffer = Buffer.alloc(0);
  /** Part of an event already went on without its end (an event over the cap). */
  private cut = false;

  /** What can go to the client now: every complete event so far. */
  push(chunk: Buffer): Buffer {
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const end = Math.max(endAfter(data, LF2), endAfter(data, CRLF2));
    if (end === 0 && data.length > MAX_HELD_BYTES) {
      this.held = Buffer.alloc(0);
      this.cut = true;
      return data;
    }
    if (end > 0) this.cut = false;
    this.held = data.subarray(end);
    return data.subarray(0, end);
  }

  /** The stream ended normally: whatever is held goes on as it came. */
  rest(): Buffer {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    return rest;
  }

  /**
   * The stream broke: the partial event is dropped, and whether an event of our own can follow
   * (false when part of an oversized event already went on).
   */
  abandon(): boolean {
    this.held = Buffer.alloc(0);
    return !this.cut;
  }
}

/** The index just past the last `separator` in `data`, or 0. */
function endAfter(data: Buffer, separator: Buffer): number {
  const at = data.lastIndexOf(separator);
  return at === -1 ? 0 : at + separator.length;
}
