// Verification after every compaction (S17): lossy must not mean broken. Each pinned constraint must
// still be in the output word for word (else it is re-injected and reported), open loops are
// counted before and after, and file paths the agent touched must still be named somewhere.
import type { ContextItem } from './model';
import { countOpenLoops, type PinnedSet } from './policy/pinned';
import { filePathOf } from './resource';
import { relativeTo, workspaceOf } from './summarizers/facts';

export interface Verification {
  constraints: { text: string; present: boolean }[];
  /** Constraints and open loops that were missing and have been re-injected into the output. */
  reinjected: string[];
  openLoopsBefore: number;
  openLoopsAfter: number;
  filesBefore: number;
  filesLost: string[];
  /** No constraint had to be re-injected, no open loop and no file path was lost. */
  ok: boolean;
}

/** Pinned entries absent from the output text: what the pinned block must carry back in. */
export function missingPins(pinned: PinnedSet, outputText: string): string[] {
  return [...pinned.constraints, ...pinned.openLoops].map((entry) => entry.text).filter((text) => !outputText.includes(text));
}

export function renderPinnedBlock(entries: readonly string[]): string {
  return `Pinned constraints and open loops (kept verbatim by Context Lens):\n${entries.map((text) => `- ${text}`).join('\n')}`;
}

function filePaths(items: readonly ContextItem[]): string[] {
  const paths = new Set<string>();
  for (const item of items) {
    const path = filePathOf(item.resourceKey);
    if (path !== undefined) paths.add(path);
  }
  return [...paths];
}

export function verify(input: { before: readonly ContextItem[]; pinned: PinnedSet; missingBeforeReinjection: readonly string[]; outputText: string; workspace?: string }): Verification {
  const beforeText = input.before.map((item) => item.text).join('\n');
  const constraints = input.pinned.constraints.map((entry) => ({ text: entry.text, present: input.outputText.includes(entry.text) }));
  const files = filePaths(input.before);
  // The summary names files relative to the workspace, as the agent does.
  const workspace = input.workspace ?? workspaceOf(files);
  const filesLost = files.filter((path) => !input.outputText.includes(path) && !input.outputText.includes(relativeTo(workspace, path)));
  const openLoopsBefore = countOpenLoops(beforeText);
  const openLoopsAfter = countOpenLoops(input.outputText);
  return {
    constraints,
    reinjected: [...input.missingBeforeReinjection],
    openLoopsBefore,
    openLoopsAfter,
    filesBefore: files.length,
    filesLost,
    ok: input.missingBeforeReinjection.length === 0 && openLoopsAfter >= openLoopsBefore && filesLost.length === 0,
  };
}
