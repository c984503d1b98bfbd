// A summary states the work as it stands, not as it was said: each open loop, claim and error is
// read against the latest word in the span and the items kept after it (state/tracker.ts). A loop
// later completed moves to "Done" with where; a claim a later item contradicts gives way to it; the
// person's focus instruction is not a fact; and no line repeats what another already says.
import { allSentencesOf } from '../policy/pinned';
import { distinctLoops } from '../state/statement';
import { resolutionOf, staleAgainst, type StateTracker } from '../state/tracker';
import { SECTION_TITLES, type SectionTitle, type SummarySections } from './template';

/** Sections whose lines report state; the person's asks and rules are quoted, never rewritten. */
const LOOPS: readonly SectionTitle[] = ['Open loops', 'Remaining work'];
const CLAIMS: readonly SectionTitle[] = ['Decisions and reasons', 'Facts established', 'Errors and root causes'];
/** Never thinned by deduplication: they hold the pinned sentences verification looks for verbatim. */
const VERBATIM: readonly SectionTitle[] = ['Constraints', 'Open loops', 'Done'];
const FOCUS_INSTRUCTION = /^\W*(?:focus(?:ing)?\s*(?:on)?\s*:|(?:focus|focusing|concentrate)\s+on\b)/i;
const CITED = /\s*\(#(\d+)\)\s*$/;

export interface SettleInput {
  tracker: StateTracker;
  focus: string;
  /** Pinned loops the person typed as questions, by the item they asked them in. */
  askedIn: ReadonlyMap<string, number>;
  /** The pinned loops: kept word for word even when another loop says the same. */
  pinnedLoops?: ReadonlySet<string>;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * "Off-by-one: fixed. Backoff still linear (#12)" → its sentences and the item it cites (-1: none).
 * A summary line is ours to settle, not the person's typing: a long sentence (a failure with its
 * verdicts and cause) is kept whole, never dropped as pasted material.
 */
function splitLine(line: string): { sentences: string[]; cited: number } {
  const match = CITED.exec(line);
  return { sentences: allSentencesOf(match ? line.slice(0, match.index) : line), cited: match ? Number(match[1]) : -1 };
}

const joinLine = (sentences: readonly string[], cited: number): string =>
  sentences.length === 0 ? '' : `${sentences.join(' ')}${cited >= 0 ? ` (#${cited})` : ''}`;

function withoutFocus(line: string, focus: string): string {
  const { sentences, cited } = splitLine(line);
  const instruction = normal(focus);
  return joinLine(
    sentences.filter((sentence) => !FOCUS_INSTRUCTION.test(sentence) && (instruction === '' || normal(sentence) !== instruction)),
    cited,
  );
}

/** Done lines by what closed them: loops closed by the same words are one line. */
type DoneLines = Map<string, { sentences: string[]; closing: string }>;

function addDone(done: DoneLines, sentence: string, closing: string): void {
  const entry = done.get(closing) ?? { sentences: [], closing };
  if (!entry.sentences.includes(sentence)) entry.sentences.push(sentence);
  done.set(closing, entry);
}

/** Open loops and planned work: a sentence the input closed later moves to Done, saying where. */
function settleLoops(lines: readonly string[], input: SettleInput, done: DoneLines): string[] {
  const open: string[] = [];
  for (const line of lines) {
    const { sentences, cited } = splitLine(line);
    const still: string[] = [];
    // Only a later word closes a loop: a pending-work line may well mention what is already done.
    for (const sentence of sentences) {
      const resolution = resolutionOf(input.tracker, sentence, cited, input.askedIn.get(sentence));
      if (resolution) addDone(done, sentence, ` — ${resolution.how} (#${resolution.itemId}): ${clip(resolution.text, 200)}`);
      else still.push(sentence);
    }
    const kept = joinLine(still, cited);
    if (kept) open.push(still.length === sentences.length ? line : kept);
  }
  return open;
}

/** Claims: one the input later contradicts (open ↔ done) gives way to the later word. */
function settleClaims(lines: readonly string[], tracker: StateTracker): string[] {
  return lines.map((line) => {
    // An error already followed to its passing re-run says so itself.
    if (line.includes('(passed later')) return line;
    const { sentences, cited } = splitLine(line);
    let changed = false;
    const settled = sentences.map((sentence) => {
      const word = staleAgainst(tracker, sentence, cited, false);
      if (!word) return sentence;
      changed = true;
      return `Now (#${word.itemId}): ${clip(word.text, 240)}`;
    });
    return changed ? joinLine(settled, cited) : line;
  });
}

/** A line's clauses, normalised, for telling a repeat from a line that adds something. */
function clauses(line: string): string[] {
  return line
    .replace(/^(?:User \(#\d+\)|Earlier summary):\s*/, '')
    .replace(/\(#\d+(?:, [^)]*)?\)/g, '')
    .split(/[.;:!?()]+(?:\s|$)|[()]/)
    .map(normal)
    .filter((clause) => clause.length > 0);
}

function normal(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*"'\u201c\u201d]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:-]+|[\s,.;:!?-]+$/g, '');
}

/**
 * Drops lines every clause of which another line already says: the verbatim sections first (they
 * always stay), then the others in order, each against what was kept before it.
 */
function withoutRepeats(sections: SummarySections): SummarySections {
  const seen = new Set<string>();
  const out: SummarySections = {};
  const order = [...VERBATIM, ...SECTION_TITLES.filter((title) => !VERBATIM.includes(title))];
  for (const title of order) {
    const kept: string[] = [];
    for (const line of sections[title] ?? []) {
      const parts = clauses(line);
      const repeat = parts.length > 0 && parts.every((part) => seen.has(part));
      if (kept.includes(line) || (repeat && !VERBATIM.includes(title))) continue;
      kept.push(line);
      for (const part of parts) seen.add(part);
    }
    if (kept.length > 0) out[title] = kept;
  }
  // Back in template order.
  return Object.fromEntries(SECTION_TITLES.filter((title) => out[title]).map((title) => [title, out[title]])) as SummarySections;
}

export function settleSections(sections: SummarySections, input: SettleInput): SummarySections {
  const settled: SummarySections = {};
  const done: DoneLines = new Map();
  for (const title of SECTION_TITLES) {
    let lines = sections[title] ?? [];
    if (title === 'Done') continue;
    if (title !== 'Focus' && title !== 'Constraints') lines = lines.map((line) => withoutFocus(line, input.focus)).filter((line) => line !== '');
    if (LOOPS.includes(title)) lines = settleLoops(lines, input, done);
    // Near-duplicate loops are one loop: "Open question: take X?" and "Still open: reading X."
    if (title === 'Open loops') lines = distinctLoops(lines, input.pinnedLoops);
    else if (CLAIMS.includes(title)) lines = settleClaims(lines, input.tracker);
    settled[title] = lines;
  }
  settled.Done = [...(sections.Done ?? []), ...[...done.values()].map((entry) => `${entry.sentences.join(' ')}${entry.closing}`)];
  return withoutRepeats(settled);
}
