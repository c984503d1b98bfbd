// The detail pane's view of one item: its text (capped, so a huge tool output cannot flood the
// webview), its epistemic markers and what the live plan (or the preview shown) does with it. Free of `vscode`.
import { findEpistemicMarkers, type Context, type ItemFate } from '../../engine';
import type { ItemDetail } from '../../protocol/messages';
import { regionLabel } from './derive';

export const DETAIL_MAX_CHARS = 50_000;

export function itemDetailOf(context: Context, id: number, fate: ItemFate | undefined): ItemDetail | null {
  const item = context.items[id];
  if (item === undefined) return null;
  const truncated = item.text.length > DETAIL_MAX_CHARS;
  const text = truncated ? item.text.slice(0, DETAIL_MAX_CHARS) : item.text;
  // The plan's markers cover only items it looked at; find them ourselves otherwise.
  const markers = (fate?.markers ?? findEpistemicMarkers(item.text)).filter((marker) => marker.end <= text.length);
  return {
    id,
    label: regionLabel(item, context.workspace),
    text,
    truncated,
    markers: markers.map(({ phrase, start, end }) => ({ phrase, start, end })),
    fate: fate?.fate ?? null,
    reason: fate?.reason ?? null,
  };
}
