// The before→after texts of a compaction (S18): the unified diff of `compact --json` and the two
// documents of the editor's side-by-side diff come from the same slots, secrets redacted.
//
// Both sides give every item the same header line, so a kept item is the same lines on both and a
// line diff matches it. Every change is a plain deletion or a plain insertion with a line both sides
// carry between any two of them: a line-diff algorithm refines a block where lines were replaced
// character by character, at a cost that grows with the square of the block (VS Code gave up after
// 5 s on the demo's old documents, whose headers differed on the two sides, and took 2 s for one
// 9 kB block). So a dropped item is gone from the after side, header and all; a compacted item's
// new text comes right under its header and its original under a second header both sides carry;
// what the engine wrote (the summary) follows the items it replaces, under a header both sides carry.
// Text the engine wrote or rewrote is quoted ("> ") on the after side: a summary quotes the items
// it replaces and a truncation keeps their first and last lines, and a diff would otherwise pair
// those lines up across the headers, back into replaced blocks.
// The line diff itself costs about the square of the lines that changed, so the originals of changed
// items share a fixed budget of lines, and the new texts of compacted items (stubs, truncations)
// another; the panel's detail has them whole. Past a few hundred changed items, each run of dropped items is
// one header: 1,600 dropped items of 20 lines, at 8 lines each, took VS Code's diff 4.6 s.
import { structuredPatch } from 'diff';
import type { AfterTexts } from './afterTexts';
import type { ContextItem } from './model';
import { redactSecrets } from './redact';
import type { ItemFate } from './result';
import { thousands } from '../base/format';

/**
 * Longer lines are cut into lines of this length, the same way on both sides: a one-line tool output
 * of a megabyte would otherwise be one line to diff, render and wrap.
 */
export const LINE_MAX_CHARS = 1_000;

export function wrapLongLines(text: string, max = LINE_MAX_CHARS): string {
  if (text.length <= max) return text;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    let start = 0;
    while (line.length - start > max) {
      // A surrogate pair stays whole.
      const end = isHighSurrogate(line.charCodeAt(start + max - 1)) ? start + max - 1 : start + max;
      lines.push(line.slice(start, end));
      start = end;
    }
    lines.push(line.slice(start));
  }
  return lines.join('\n');
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** A slot is one position of the context: an item before and after, or a text the engine wrote. */
export interface DiffSlot {
  before: string;
  after: string;
}

/** What an item's header names after its number. */
export type ItemLabel = (item: ContextItem) => string;

const kindAndRole: ItemLabel = (item) => `${item.kind} (${item.role})`;

export const itemHeader = (item: ContextItem, label: ItemLabel = kindAndRole): string => `=== #${item.id} ${label(item)} ===`;
export const originalHeader = (item: ContextItem): string => `=== #${item.id} before compaction ===`;
export const writtenHeader = (kind: string): string => `=== new ${kind} ===`;
const droppedRunHeader = (first: ContextItem, last: ContextItem, count: number): string =>
  `=== #${first.id}–#${last.id}: ${thousands(count)} items dropped ===`;

/** Lines that the originals of changed items share, and the new texts of compacted items; the rest is shown whole. */
export const CHANGED_LINES_BUDGET = 2_000;
const CHANGED_LINES_MIN = 3;

const itemText = (text: string): string => wrapLongLines(redactSecrets(text));
const quoted = (text: string): string =>
  text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

/** The first `maxLines` lines of a changed item's text, and how many more there are. */
function shortened(text: string, maxLines: number): string {
  const lines = itemText(text).split('\n');
  if (lines.length <= maxLines) return lines.join('\n');
  const rest = lines.slice(maxLines);
  return `${lines.slice(0, maxLines).join('\n')}\n… ${thousands(rest.length)} more lines (${thousands(rest.join('\n').length)} characters) not shown here`;
}

function keptSlot(header: string, text: string): DiffSlot {
  const before = `${header}\n${itemText(text)}\n\n`;
  return { before, after: before };
}

const droppedSlot = (header: string, original: string): DiffSlot => ({ before: `${header}\n${original}\n\n`, after: '' });

/**
 * The new text under `header` on the after side, then `anchor` on both; `original` (what a compacted
 * item held) follows the anchor on the before side.
 */
function rewrittenSlot(header: string, rewritten: string, anchor?: { line: string; original: string }): DiffSlot {
  const after = `${header}\n${quoted(rewritten)}\n`;
  if (!anchor) return { before: `${header}\n\n`, after: `${after}\n` };
  return { before: `${header}\n${anchor.line}\n${anchor.original}\n\n`, after: `${after}${anchor.line}\n\n` };
}

/**
 * One slot per item of the context, in order, and one per text the engine wrote, where it stands.
 * Null when a fate names an item the context does not hold.
 */
export function diffSlots(
  items: readonly ContextItem[],
  fates: readonly Pick<ItemFate, 'id' | 'fate'>[],
  texts: Pick<AfterTexts, 'compacted' | 'placed'>,
  label: ItemLabel = kindAndRole,
): DiffSlot[] | null {
  const slots: DiffSlot[] = [];
  const changed = fates.filter((fate) => fate.fate !== 'preserved').length;
  const share = Math.floor(CHANGED_LINES_BUDGET / Math.max(1, changed));
  const maxLines = Math.max(CHANGED_LINES_MIN, share);
  const rewrittenLines = Math.max(CHANGED_LINES_MIN, Math.floor(CHANGED_LINES_BUDGET / Math.max(1, texts.compacted.size)));
  let run: ContextItem[] = [];
  const endRun = (): void => {
    const [first, last] = [run[0], run.at(-1)];
    if (first && last) slots.push({ before: `${first === last ? itemHeader(first, label) : droppedRunHeader(first, last, run.length)}\n\n`, after: '' });
    run = [];
  };
  const placedBefore = (id: number | null): void => {
    endRun();
    for (const entry of texts.placed) if (entry.before === id) slots.push(rewrittenSlot(writtenHeader(entry.kind), itemText(entry.text)));
  };
  for (const fate of fates) {
    const item = items[fate.id];
    if (item === undefined) return null;
    if (fate.fate === 'dropped' && share < CHANGED_LINES_MIN) {
      run.push(item);
      continue;
    }
    if (fate.fate !== 'dropped') placedBefore(fate.id);
    const header = itemHeader(item, label);
    if (fate.fate === 'preserved') slots.push(keptSlot(header, item.text));
    else if (fate.fate === 'dropped') slots.push(droppedSlot(header, shortened(item.text, maxLines)));
    else
      slots.push(
        rewrittenSlot(header, shortened(texts.compacted.get(fate.id) ?? '', rewrittenLines), {
          line: originalHeader(item),
          original: shortened(item.text, maxLines),
        }),
      );
  }
  placedBefore(null);
  return slots;
}

/** The two whole documents of a side-by-side diff. */
export function diffSides(slots: readonly DiffSlot[]): { before: string; after: string } {
  return { before: slots.map((slot) => slot.before).join(''), after: slots.map((slot) => slot.after).join('') };
}

function lineCount(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/**
 * Each changed slot is diffed on its own and the hunks are shifted into place, so the cost follows
 * the size of the change, not of the context (a whole-text Myers diff of a 1M-token context with a
 * large dropped span would take seconds).
 */
export function unifiedDiff(slots: readonly DiffSlot[], context = 2): string {
  const lines = ['--- context (before)', '+++ context (after)'];
  let oldLine = 0;
  let newLine = 0;
  for (const slot of slots) {
    if (slot.before !== slot.after) {
      const patch = structuredPatch('a', 'b', redactSecrets(slot.before), redactSecrets(slot.after), '', '', { context });
      for (const hunk of patch.hunks) {
        // Unified diff names an empty range by the line it follows; jsdiff's raw hunks are 1-based
        // there too, so an empty side is shifted back by one (as jsdiff's own formatter does).
        const oldStart = oldLine + hunk.oldStart - (hunk.oldLines === 0 ? 1 : 0);
        const newStart = newLine + hunk.newStart - (hunk.newLines === 0 ? 1 : 0);
        lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines);
      }
    }
    oldLine += lineCount(slot.before);
    newLine += lineCount(slot.after);
  }
  return lines.length === 2 ? '' : `${lines.join('\n')}\n`;
}
