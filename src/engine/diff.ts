// The before→after view (S18): one unified diff over the rendered context, secrets redacted. Each
// changed item is diffed on its own and the hunks are shifted into place, so the cost follows the
// size of the change, not of the context (a whole-text Myers diff of a 1M-token context with a
// large dropped span would take seconds).
import { structuredPatch } from 'diff';
import type { ContextItem } from './model';
import { redactSecrets } from './redact';

export function renderItem(item: Pick<ContextItem, 'kind' | 'role' | 'text'> & { id?: number }): string {
  const label = item.id === undefined ? `new ${item.kind}` : `#${item.id} ${item.kind}`;
  return `=== ${label} (${item.role}) ===\n${item.text}\n`;
}

function lineCount(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** A slot is one position of the context: an old item, its replacement, or both. */
export interface DiffSlot {
  before: string;
  after: string;
}

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
