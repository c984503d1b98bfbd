// The pinned block: what an agent's own compaction must not lose, built from a session's records
// (what the person typed, the agent's text, earlier summaries) and the workspace's pinned
// constraints. The standing rules, decisions and requests, the open loops still open (a loop a later
// word closed is named as done), revoked rules named as revoked, and the person's prompts word for
// word within the prompt budget. Pure: each agent's connection reads its own session into
// `PinSource`s and writes the text in its own wire format (a hook's stdout, a plugin's context).
import { tagBudget, type TagBudget } from './policy/classify';
import { buildPinnedSet, extractMarkedPins, extractPins, type ExtractedPins, type PinnedEntry, type PinnedSet } from './policy/pinned';
import { promptBudgetTokens, promptsWithinCap } from './policy/prompts';
import { resolutionOf, trackState, type Resolution, type SaidItem } from './state/tracker';
import { pinnableSummaryText } from './summarizers/foreignSummary';
import { charEstimateTokenizer } from './tokens/tokenizer';

/** One record of a session the pins may come from. */
export interface PinSource {
  /** Position of the record in the session (a line, an index): later ones revoke earlier ones. */
  line: number;
  /** `typed`: the person's words; `agent`: the agent's text; `summary`: a compaction summary. */
  kind: 'typed' | 'agent' | 'summary';
  text: string;
}

/** What the workspace says (Context Lens settings), with the defaults where it says nothing. */
export interface PinSettings {
  /** Constraints the person pinned in settings: always carried. */
  readonly pinned: readonly string[];
  /** False: only the settings' constraints, nothing taken from the session. */
  readonly extractPinned: boolean;
  /** Share of the window the person's prompts may take word for word. */
  readonly promptBudgetPercent: number;
}

/** `summariser`: appended to the compaction's instructions; `reinject`: put back into the context after it. */
export type PinPurpose = 'summariser' | 'reinject';

export interface PinnedBlock {
  /** The block, '' when there is nothing to carry. */
  readonly text: string;
  readonly constraints: number;
  readonly openLoops: number;
}

/** A prompt the person typed, by its record. */
interface Prompt {
  line: number;
  text: string;
}

/** An open loop a later word in the session closed: printed as done, never as still open. */
interface ClosedLoop {
  text: string;
  resolution: Resolution;
}

const HEADERS: Record<PinPurpose, string> = {
  summariser:
    "Keep the user's words below verbatim in the summary, every line word for word: their standing rules, requests and open loops, and their own prompts.",
  reinject: 'Written by the user before this conversation was compacted; the rules, requests and open loops still apply:',
};

/**
 * The block for a session. `sources` are in session order; `windowTokens` is the window the prompt
 * budget is a share of. With no sources (a session that could not be read) the settings' pins stand alone.
 */
export function buildPinnedBlock(sources: readonly PinSource[], settings: PinSettings, windowTokens: number, purpose: PinPurpose): PinnedBlock {
  const { pinned, prompts, closed } = collect(settings.extractPinned ? sources : [], settings, windowTokens);
  return { text: render(pinned, prompts, closed, purpose), constraints: pinned.constraints.length, openLoops: pinned.openLoops.length };
}

function collect(sources: readonly PinSource[], settings: PinSettings, windowTokens: number): { pinned: PinnedSet; prompts: Prompt[]; closed: ClosedLoop[] } {
  // Newest first, so the tagger's allowance goes to the latest prompts; listed oldest first again.
  const budget = tagBudget();
  const pins = sources
    .toReversed()
    .map(({ line, kind, text }) => ({ id: line, pins: pinsOf(kind, text, budget) }))
    .toReversed();
  const said = sources.map(({ line, kind, text }): SaidItem => ({
    id: line,
    kind: kind === 'typed' ? 'user' : kind === 'agent' ? 'assistant' : 'summary',
    text,
  }));
  const typed = sources.filter((source) => source.kind === 'typed').map(({ line, text }) => ({ line, text }));
  const sizes = typed.map((prompt) => ({ id: prompt.line, tokens: charEstimateTokenizer.count(prompt.text) }));
  // The block goes back into every turn after the compaction: the first ask is kept whole only
  // within the budget too, or a pasted first prompt alone could fill a small window.
  const whole = promptsWithinCap(
    sizes,
    promptBudgetTokens(windowTokens, settings.promptBudgetPercent),
    new Set(typed.slice(0, 1).map((prompt) => prompt.line)),
  );
  const pinned = buildPinnedSet([...settings.pinned], pins);
  // State, not history: a TODO the agent later finished, a question it answered, is not handed on as open.
  const tracker = trackState(said);
  const typedLines = new Set(typed.map((prompt) => prompt.line));
  const closed: ClosedLoop[] = [];
  const open = pinned.openLoops.filter((entry) => {
    const resolution =
      entry.sourceId === undefined ? undefined : resolutionOf(tracker, entry.text, entry.sourceId, typedLines.has(entry.sourceId) ? entry.sourceId : undefined);
    if (resolution) closed.push({ text: entry.text, resolution });
    return resolution === undefined;
  });
  return { pinned: { ...pinned, openLoops: open }, prompts: typed.filter((prompt) => whole.has(prompt.line)), closed };
}

/** The person's words are tagged; an earlier summary counts by its explicit markers only; the agent adds open loops only. */
function pinsOf(kind: PinSource['kind'], text: string, budget: TagBudget): ExtractedPins {
  if (kind === 'summary') return extractMarkedPins(pinnableSummaryText(text));
  if (kind === 'typed') return extractPins(text, budget);
  return { constraints: [], openLoops: extractMarkedPins(text).openLoops };
}

/** Items from prompts not printed whole (a whole prompt holds its own). */
const fromOtherPrompts = (entries: readonly PinnedEntry[], whole: ReadonlySet<number>): PinnedEntry[] =>
  entries.filter((entry) => entry.sourceId === undefined || !whole.has(entry.sourceId));

/**
 * Rules and open loops always; requests only from prompts not printed whole. A prompt holding a
 * revoked rule says so where the rule stands, and the revoked rules are named as revoked.
 */
function render(pinned: PinnedSet, prompts: readonly Prompt[], closed: readonly ClosedLoop[], purpose: PinPurpose): string {
  const whole = new Set(prompts.map((prompt) => prompt.line));
  const requests = fromOtherPrompts(pinned.requests ?? [], whole);
  const revoked = pinned.revoked ?? [];
  if (pinned.constraints.length + pinned.openLoops.length + requests.length + prompts.length === 0) return '';
  const section = (title: string, lines: readonly string[]): string[] => (lines.length === 0 ? [] : [`${title}:`, ...lines.map((line) => `- ${line}`)]);
  const promptLines = prompts.map((prompt) =>
    revoked
      .filter((entry) => entry.sourceId === prompt.line)
      .reduce((text, entry) => text.replace(entry.text, `${entry.text} [REVOKED later by: "${entry.by}"]`), prompt.text),
  );
  return `${[
    HEADERS[purpose],
    '<pinned>',
    ...section(
      'Constraints',
      pinned.constraints.map((entry) => entry.text),
    ),
    ...section(
      'Requests from earlier prompts',
      requests.map((entry) => entry.text),
    ),
    ...section(
      'Open loops',
      pinned.openLoops.map((entry) => entry.text),
    ),
    ...section(
      'Done since (not open any more)',
      closed.map(({ text, resolution }) => `${text} — ${resolution.how} later: ${resolution.text.slice(0, 300)}`),
    ),
    ...section(
      'Revoked (no longer apply; never present them as rules)',
      revoked.map((entry) => `"${entry.text}" (revoked by: "${entry.by}")`),
    ),
    '</pinned>',
    ...(promptLines.length === 0
      ? []
      : ['<user-prompts>', "The user's prompts, word for word, oldest first:", ...promptLines.map((line) => `- ${line}`), '</user-prompts>']),
  ].join('\n')}\n`;
}
