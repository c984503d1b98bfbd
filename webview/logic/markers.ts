// Splits an item's text into plain and marked runs from the host's epistemic-marker offsets, so
// the detail pane can build <mark> spans with DOM APIs instead of ever touching innerHTML.
// Offsets come over an untrusted boundary: out-of-range, unsorted and overlapping ones are tolerated.

export interface MarkerRange {
  readonly phrase: string;
  readonly start: number;
  readonly end: number;
}

export interface TextRun {
  readonly text: string;
  /** The marker phrase for a highlighted run, null for plain text. */
  readonly marker: string | null;
}

export function segmentByMarkers(text: string, markers: readonly MarkerRange[]): TextRun[] {
  const ranges = markers
    .map((marker) => ({ phrase: marker.phrase, start: Math.min(marker.start, text.length), end: Math.min(marker.end, text.length) }))
    .filter((marker) => marker.end > marker.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const runs: TextRun[] = [];
  let cursor = 0;
  for (const range of ranges) {
    // An overlapping marker only highlights what the previous one left uncovered.
    const start = Math.max(range.start, cursor);
    if (range.end <= start) continue;
    if (start > cursor) runs.push({ text: text.slice(cursor, start), marker: null });
    runs.push({ text: text.slice(start, range.end), marker: range.phrase });
    cursor = range.end;
  }
  if (cursor < text.length || runs.length === 0) runs.push({ text: text.slice(cursor), marker: null });
  return runs;
}
