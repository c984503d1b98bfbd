// Where the diff editor should open: at the first line the two sides differ on. VS Code reveals its
// own first change only while the diff is being computed, and the word wrap turned on after it
// (DiffDocuments) reflows the text under a viewport that stays where it was: the demo's diff ended
// up on unchanged lines (534 of a 288-line right side). Every line before the first change is the
// same on both sides, so its index is the same on both.

/** The 0-based line of the first change (the end of the shorter text when one extends the other; 0 when equal). */
export function firstChangedLine(before: string, after: string): number {
  const left = before.split('\n');
  const right = after.split('\n');
  const shorter = Math.min(left.length, right.length);
  for (let line = 0; line < shorter; line++) if (left[line] !== right[line]) return line;
  return left.length === right.length ? 0 : Math.max(0, shorter - 1);
}
