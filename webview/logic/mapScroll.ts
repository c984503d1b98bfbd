// Where the region map stands after its order changes. It follows its end by default (null: the
// newest context is the live part, like a terminal); sorted biggest first, the rows that matter are
// the first ones, so a new sort starts at the top (issue 41 item 14: sorting by tokens or cost left
// the top rows off-screen).
import type { MapSort } from './costView';

/** The scroll position after switching from `from` to `to`: null follows the end. */
export function scrollAfterSort(from: MapSort, to: MapSort, scrollTop: number | null): number | null {
  if (from === to) return scrollTop;
  return to === 'order' ? null : 0;
}
