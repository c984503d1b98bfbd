// Window math of the virtualised region map: with a fixed row height, which rows are on screen
// (plus an overscan margin so fast scrolling does not show blank rows) and where to scroll to keep
// the selection visible. Pure numbers, so 10k-row behaviour is tested without a browser.

export interface VirtualWindow {
  /** First row to render (inclusive). */
  readonly start: number;
  /** One past the last row to render. */
  readonly end: number;
  /** Height of the whole list, so the scrollbar is true to the row count. */
  readonly totalHeight: number;
}

export function virtualWindow(count: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan: number): VirtualWindow {
  const totalHeight = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, totalHeight };
  const first = Math.floor(Math.max(scrollTop, 0) / rowHeight);
  const visible = Math.ceil(Math.max(viewportHeight, 0) / rowHeight) + 1;
  const start = clamp(first - overscan, 0, count);
  const end = clamp(first + visible + overscan, start, count);
  return { start, end, totalHeight };
}

/** The scrollTop that brings row `index` fully into view, moving as little as possible. */
export function scrollToReveal(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(bottom - viewportHeight, 0);
  return scrollTop;
}

/** Keyboard movement in a list: arrows by one, pages by a screenful, Home/End to the ends. */
export function moveSelection(current: number, count: number, key: string, pageRows: number): number | null {
  if (count === 0) return null;
  const from = current < 0 ? -1 : current;
  switch (key) {
    case 'ArrowDown':
      return clamp(from + 1, 0, count - 1);
    case 'ArrowUp':
      return clamp(from < 0 ? count - 1 : from - 1, 0, count - 1);
    case 'PageDown':
      return clamp(from + Math.max(pageRows, 1), 0, count - 1);
    case 'PageUp':
      return clamp(from - Math.max(pageRows, 1), 0, count - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
