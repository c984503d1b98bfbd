// Verification after every compaction (S17): lossy must not mean broken. Each pinned constraint must
// still be in the output word for word (else it is re-injected and reported), open loops are
// counted before and after (a loop the input closed is open on neither side), file paths the agent
// touched must still be named somewhere, and no summary line may state as current what a later item
// contradicts — the heuristic's and a model's summary alike.
import { SUMMARY_TAG } from './fromMessages';
import type { ContextItem } from './model';
import { isOpenLoop, sentencesOf, type PinnedSet } from './policy/pinned';
import { filePathOf } from './resource';
import { distinctLoops } from './state/statement';
import { resolutionOf, staleAgainst, trackState, type StateTracker } from './state/tracker';
import { isFailure, passingRerun, relativeTo, workspaceOf } from './summarizers/facts';
import { sectionsOfSummary } from './summarizers/foreignSummary';
import type { SectionTitle } from './summarizers/template';

/** A summary line a later item contradicts, with that item: what the preview shows. */
export interface Contradiction {
  line: string;
  laterItemId: number;
  laterText: string;
}

export interface Verification {
  constraints: { text: string; present: boolean }[];
  /** Constraints and open loops that were missing and have been re-injected into the output. */
  reinjected: string[];
  /** Open loops the input leaves open (a TODO done later, a question answered, is not one). */
  openLoopsBefore: number;
  openLoopsAfter: number;
  filesBefore: number;
  filesLost: string[];
  /** Summary lines stating as current what a later preserved or summarised item contradicts. */
  contradictions: Contradiction[];
  /** No constraint had to be re-injected, no open loop or file path was lost, nothing stale is stated. */
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

/** Sections whose lines state the work's state; asks, rules and lines already marked done are not checked. */
const LOOP_SECTIONS: readonly SectionTitle[] = ['Open loops', 'Remaining work'];
const CLAIM_SECTIONS: readonly SectionTitle[] = ['Decisions and reasons', 'Facts established', 'Errors and root causes'];
const CITED = /\s*\(#(\d+)\)\s*$/;
const FRAME = new RegExp(`<${SUMMARY_TAG}[^>]*>\\n?([\\s\\S]*?)\\n?</${SUMMARY_TAG}>`, 'g');
/** The heading of the section listing what the input closed (template.ts), and the section. */
const DONE_HEADING = /^#{1,3}\s+Done\s*$/;
const DONE_SECTION = /^#{1,3}\s+Done\s*\n(?:(?!#{1,3}\s|<\/).*(?:\n|$))*/gm;

const SPOKEN = new Set(['user', 'assistant', 'summary']);
const normal = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * `undated`: where a line citing no item is dated — it was carried from an earlier summary, so only
 * what was said after the latest one can contradict it.
 */
function contradictionsIn(body: string, items: readonly ContextItem[], tracker: StateTracker, undated: number): Contradiction[] {
  const sections = sectionsOfSummary(body, Infinity);
  const found: Contradiction[] = [];
  for (const title of [...LOOP_SECTIONS, ...CLAIM_SECTIONS]) {
    for (const line of sections[title] ?? []) {
      const match = CITED.exec(line);
      const cited = match ? Number(match[1]) : undated;
      // A failure the line itself follows to its passing re-run is stated as it stands.
      if (line.includes('(passed later')) continue;
      // "failed: … (#78)" while a later run of the same command passed.
      const failed = items.find((item) => item.id === cited && isFailure(item));
      const rerun = failed && /\bfail/i.test(line) ? passingRerun(items, failed) : undefined;
      if (rerun) {
        found.push({ line, laterItemId: rerun.id, laterText: rerun.text.slice(0, 200) });
        continue;
      }
      for (const sentence of sentencesOf(match ? line.slice(0, match.index) : line)) {
        const word = staleAgainst(tracker, sentence, cited, LOOP_SECTIONS.includes(title));
        if (word) {
          found.push({ line, laterItemId: word.itemId, laterText: word.text });
          break;
        }
      }
    }
  }
  return found;
}

/**
 * A constraint the person revoked later (a "forget that rule", a permission that lifts it) listed
 * in a summary's Constraints as if it still held: stale, with the sentence that revoked it.
 */
function revokedStillListed(body: string, pinned: PinnedSet): Contradiction[] {
  const lines = sectionsOfSummary(body, Infinity).Constraints ?? [];
  return (pinned.revoked ?? []).flatMap((entry) => {
    const line = lines.find((candidate) => candidate.includes(entry.text) && !/^\W*revoked\b/i.test(candidate));
    return line === undefined ? [] : [{ line, laterItemId: entry.byId ?? entry.sourceId ?? -1, laterText: entry.by }];
  });
}

/**
 * Distinct open-loop sentences of a text that the input leaves open. Lines under a "Done" heading
 * are not loops; a question the person asked counts until a reply speaks to it.
 */
function openLoops(text: string, tracker: StateTracker, askedIn: ReadonlyMap<string, number>, into: Set<string>): void {
  let done = false;
  for (const line of text.split('\n')) {
    if (/^#{1,3}\s/.test(line)) done = DONE_HEADING.test(line);
    if (done || !isOpenLoop(line)) continue;
    for (const sentence of sentencesOf(line)) {
      if (isOpenLoop(sentence) && !resolutionOf(tracker, sentence, -1, askedIn.get(sentence))) into.add(normal(sentence));
    }
  }
}

export function verify(input: {
  before: readonly ContextItem[];
  pinned: PinnedSet;
  missingBeforeReinjection: readonly string[];
  outputText: string;
  workspace?: string;
}): Verification {
  const constraints = input.pinned.constraints.map((entry) => ({ text: entry.text, present: input.outputText.includes(entry.text) }));
  const files = filePaths(input.before);
  // The summary names files relative to the workspace, as the agent does.
  const workspace = input.workspace ?? workspaceOf(files);
  const filesLost = files.filter((path) => !input.outputText.includes(path) && !input.outputText.includes(relativeTo(workspace, path)));
  const tracker = trackState(input.before);
  const typed = new Set(input.before.filter((item) => item.kind === 'user').map((item) => item.id));
  const askedIn = new Map(
    input.pinned.openLoops.filter((entry) => entry.sourceId !== undefined && typed.has(entry.sourceId)).map((entry) => [entry.text, entry.sourceId ?? -1]),
  );
  // Loops are what the person and the agent wrote: a "TODO" in a file read or a test report is not one.
  const before = new Set<string>();
  for (const item of input.before) if (SPOKEN.has(item.kind)) openLoops(item.text, tracker, askedIn, before);
  // After: those carried over word for word (outside a Done section), and whatever a summary states
  // as open in its own words.
  const output = normal(input.outputText.replace(DONE_SECTION, ''));
  const bodies = [...input.outputText.matchAll(FRAME)].map((frame) => frame[1] ?? '');
  const after = new Set([...before].filter((loop) => output.includes(loop)));
  for (const body of bodies) openLoops(body, tracker, askedIn, after);
  const undated = input.before.findLast((item) => item.kind === 'summary')?.id ?? -1;
  // Loops that say the same thing in other words count once, before and after.
  const openLoopsBefore = distinctLoops([...before]).length;
  const openLoopsAfter = distinctLoops([...after]).length;
  const contradictions = bodies.flatMap((body) => [...contradictionsIn(body, input.before, tracker, undated), ...revokedStillListed(body, input.pinned)]);
  return {
    constraints,
    reinjected: [...input.missingBeforeReinjection],
    openLoopsBefore,
    openLoopsAfter,
    filesBefore: files.length,
    filesLost,
    contradictions,
    ok: input.missingBeforeReinjection.length === 0 && openLoopsAfter >= openLoopsBefore && filesLost.length === 0 && contradictions.length === 0,
  };
}
