// What every agent's per-call usage reader shares (port.ts, UsageReader): points kept by the live
// context's entry refs, read incrementally from where the live context starts (only the bytes
// appended since the last read), started over when the live context starts earlier or the file was
// truncated or replaced. Each agent says only how to read its records from an offset.
import type { UsagePoint, UsageReader } from '../port';
import type { ScanEnd } from './lines';

export abstract class UsageLogBase implements UsageReader {
  protected readonly points = new Map<string, UsagePoint>();
  /** Where the records read so far start, and where the next read starts. */
  private start = 0;
  private offset = 0;
  private read = false;

  constructor(readonly path: string) {}

  /** Reads on from the last read; from `from` instead when nothing was read yet or the live context now starts earlier. */
  async update(from = 0): Promise<void> {
    if (!this.read || from < this.start) this.restart(from);
    this.read = true;
    const end = await this.readFrom(this.offset);
    if (end.size < this.offset) {
      // Truncated or replaced: start over.
      this.read = false;
      return this.update(from);
    }
    this.offset = end.nextOffset;
  }

  get(ref: string): UsagePoint | undefined {
    return this.points.get(ref);
  }

  /** Reads the records from `offset` to the end (an unfinished last line kept for later), noting their points. */
  protected abstract readFrom(offset: number): Promise<ScanEnd>;

  /** Forgets what was read (the subclass clears its own state too). */
  protected restart(from: number): void {
    this.points.clear();
    this.start = from;
    this.offset = from;
  }
}
