// The offline summarizer: deterministic and extractive, the default and the fallback for every LLM
// summarizer. It fills each template section from the span's own sentences (never invents), so it
// can run inside the live preview and in tests without a network.
import { focusMatcher } from '../policy/focus';
import { sentencesOf } from '../policy/pinned';
import { trackState } from '../state/tracker';
import { describeFile, spanFacts } from './facts';
import { sectionsOfSummary } from './foreignSummary';
import { settleSections } from './settle';
import { markdownSummaryBuilder, SECTION_TITLES, type SectionTitle, type SummaryBuilder, type SummarySections } from './template';
import type { Summarizer, SummaryRequest, SummarizerResult } from './types';

const REMAINING = /\b(next|remaining|still need|need to|todo|will now|plan to|then I'll|afterwards|left to do)\b/i;

const PER_SECTION = 8;

function clip(text: string, max: number): string {
  // Only the opening is kept: flattening a whole 100 KB output first would dominate large plans.
  const window = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = window.replace(/\s+/g, ' ').trim();
  return flat.length <= max && window === text ? flat : `${flat.slice(0, max - 1)}…`;
}

function pushUnique(list: string[], line: string, limit = PER_SECTION): void {
  if (list.length < limit && !list.includes(line)) list.push(line);
}

/** The person's text without the rules they revoked later, each replaced by a note saying so. */
function withoutRevoked(text: string, request: SummaryRequest): string {
  let out = text;
  for (const entry of request.pinned.revoked ?? [])
    if (out.includes(entry.text)) out = out.replace(entry.text, '[a rule here was revoked later, see Constraints]');
  return out;
}

export function heuristicSections(request: SummaryRequest): SummarySections {
  const sections: Record<SectionTitle, string[]> = Object.fromEntries(SECTION_TITLES.map((title) => [title, []])) as unknown as Record<SectionTitle, string[]>;
  if (request.originalAsk) sections['Task and intent'].push(clip(withoutRevoked(request.originalAsk, request), 500));
  const matchesFocus = request.focus ? focusMatcher(request.focus) : undefined;
  const { items } = request;
  for (const item of items) {
    if (item.kind === 'user') pushUnique(sections['Task and intent'], `User (#${item.id}): ${clip(withoutRevoked(item.text, request), 300)}`);
    if (matchesFocus && item.kind === 'tool_result' && matchesFocus(item.text)) pushUnique(sections.Focus, `*FOCUS* #${item.id}: ${clip(item.text, 300)}`);
  }
  const later = request.later ?? [];
  const facts = spanFacts(items, request.workspace, later);
  sections['Decisions and reasons'] = facts.decisions;
  sections['Facts established'] = facts.facts;
  sections['Errors and root causes'] = facts.errors;
  sections.Files = facts.files.slice(0, PER_SECTION * 2).map(describeFile);
  // Constraints word for word; revoked ones only as such, with what revoked them.
  sections.Constraints = [
    ...request.pinned.constraints.map((entry) => entry.text),
    ...(request.pinned.revoked ?? []).map((entry) => `Revoked (no longer applies): "${entry.text}" — revoked by: "${entry.by}"`),
  ];
  sections['Open loops'] = request.pinned.openLoops.map((entry) => entry.text);
  for (const loop of facts.agentLoops) pushUnique(sections['Open loops'], loop, Number.POSITIVE_INFINITY);
  // Remaining work is what the span was about to do when it ended: read it from the end.
  for (const item of [...items].reverse()) {
    if (item.kind !== 'assistant' || sections['Remaining work'].length >= 4) continue;
    for (const sentence of sentencesOf(item.text))
      if (REMAINING.test(sentence)) pushUnique(sections['Remaining work'], `${clip(sentence, 240)} (#${item.id})`, 4);
  }
  for (const { itemId, phrases } of request.markers) {
    pushUnique(sections['Uncertainty points'], `#${itemId}: ${phrases.map((phrase) => `"${phrase}"`).join(', ')}`);
  }
  return settleSections(mergePrevious(sections, request.previousSummary, request), {
    tracker: trackState([...items, ...later]),
    focus: request.focus,
    askedIn: questionsAsked(request),
    pinnedLoops: new Set(request.pinned.openLoops.map((entry) => entry.text)),
  });
}

/** The person's pinned loops that are questions, by the message that asked them. */
function questionsAsked(request: SummaryRequest): Map<string, number> {
  const typed = new Set([...request.items, ...(request.later ?? [])].filter((item) => item.kind === 'user').map((item) => item.id));
  return new Map(
    request.pinned.openLoops.filter((entry) => entry.sourceId !== undefined && typed.has(entry.sourceId)).map((entry) => [entry.text, entry.sourceId ?? -1]),
  );
}

/**
 * Iterative mode (S10): earlier bullets first, new ones after, duplicates once. An earlier
 * constraint the person has since revoked is not carried on as one.
 */
function mergePrevious(sections: SummarySections, previous: string | undefined, request: SummaryRequest): SummarySections {
  if (!previous) return sections;
  const earlier = sectionsOfSummary(previous);
  const revoked = (request.pinned.revoked ?? []).map((entry) => entry.text);
  const merged: SummarySections = {};
  for (const title of SECTION_TITLES) {
    const lines = (earlier[title] ?? []).filter((line) => title !== 'Constraints' || !revoked.includes(line));
    for (const line of sections[title] ?? []) if (!lines.includes(line)) lines.push(line);
    // Constraints and open loops are never thinned; other sections keep their newest bullets.
    merged[title] = title === 'Constraints' || title === 'Open loops' ? lines : lines.slice(-PER_SECTION * 2);
  }
  return merged;
}

/** Renders and bounds the body to the summary budget (about 4 chars a token). */
export function heuristicSummary(request: SummaryRequest, builder: SummaryBuilder = markdownSummaryBuilder): string {
  const body = builder(heuristicSections(request));
  const maxChars = request.maxTokens * 4;
  return body.length <= maxChars ? body : `${body.slice(0, maxChars - 1)}…`;
}

export class HeuristicSummarizer implements Summarizer {
  readonly name = 'heuristic';
  constructor(private readonly builder: SummaryBuilder = markdownSummaryBuilder) {}

  summarize(request: SummaryRequest): Promise<SummarizerResult> {
    return Promise.resolve({ ok: true, value: heuristicSummary(request, this.builder) });
  }
}
