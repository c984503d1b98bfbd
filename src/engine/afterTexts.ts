// Lines a result's `after` context back up with the items it came from. `after` holds the
// surviving items in order (compacted ones with their new text) plus what the engine wrote itself
// (summary, re-injected constraints), which carries no sourceRef. Consumers that apply a result
// (a fork writer) or show it (a diff) need "item #id became this text" and "this text goes here".
import type { ItemKind } from './model';
import type { CompactionResult } from './result';

/** A text the engine wrote, and where it stands among the surviving items. */
export interface PlacedText {
  text: string;
  kind: ItemKind;
  /** Id of the surviving item it comes before; null when it comes after all of them. */
  before: number | null;
}

export interface AfterTexts {
  /** New text of every compacted item, by item id. */
  compacted: Map<number, string>;
  /** Texts the engine wrote itself, in order. */
  written: string[];
  /** The same texts with their place. */
  placed: PlacedText[];
}

/** Null when `after` does not line up with the surviving items (a result from another context). */
export function afterTexts(result: CompactionResult): AfterTexts | null {
  const survivors = result.items.filter((fate) => fate.fate !== 'dropped');
  const compacted = new Map<number, string>();
  const placed: PlacedText[] = [];
  let next = 0;
  for (const item of result.after.items) {
    const copied = item.kind === 'system' || item.kind === 'tools' || item.sourceRef !== undefined;
    if (!copied) {
      placed.push({ text: item.text, kind: item.kind, before: survivors[next]?.id ?? null });
      continue;
    }
    const fate = survivors[next++];
    if (fate === undefined) return null;
    if (fate.fate === 'compacted') compacted.set(fate.id, item.text);
  }
  return next === survivors.length ? { compacted, written: placed.map((entry) => entry.text), placed } : null;
}
