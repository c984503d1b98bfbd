// The offline summarizer: deterministic and extractive, the default and the fallback for every LLM
// summarizer. It fills each template section from the span's own sentences (never invents), so it
// can run inside the live preview and in tests without a network.
import type { ContextItem } from '../model';
import { filePathOf, resourceLabel } from '../resource';
import { focusMatcher } from '../policy/focus';
import { isOpenLoop, sentencesOf } from '../policy/pinned';
import { sectionsOfSummary } from './foreignSummary';
import { markdownSummaryBuilder, SECTION_TITLES, type SectionTitle, type SummaryBuilder, type SummarySections } from './template';
import type { Summarizer, SummaryRequest, SummarizerResult } from './types';

const DECISION = /\b(decided|decide to|decision|chose|choose|going with|go with|instead|rather than|because|opted|switch(?:ed)? to|I'll use|we'll use|settled on)\b/i;
const FACT = /\b(found|confirmed|turns out|is defined|is located|lives in|uses|contains|returns|passes|passed|succeeded|works|verified)\b/i;
const ERROR_TEXT = /\b(error|exception|traceback|failed|failure|FAIL|panic|segfault|cannot|not found)\b/i;
const ROOT_CAUSE = /\b(because|caused by|root cause|due to|the (?:issue|problem|bug) (?:is|was))\b/i;
const REMAINING = /\b(next|remaining|still need|need to|todo|will now|plan to|then I'll|afterwards|left to do)\b/i;

const PER_SECTION = 8;
const BULLET_CHARS = 240;

function clip(text: string, max = BULLET_CHARS): string {
  // Only the opening is kept: flattening a whole 100 KB output first would dominate large plans.
  const window = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = window.replace(/\s+/g, ' ').trim();
  return flat.length <= max && window === text ? flat : `${flat.slice(0, max - 1)}…`;
}

function pushUnique(list: string[], line: string, limit = PER_SECTION): void {
  if (list.length < limit && !list.includes(line)) list.push(line);
}

/** The line of a failing output that names the failure (first match), else its first line. */
function errorLine(text: string): string {
  const lines = text.split('\n');
  return lines.find((line) => ERROR_TEXT.test(line)) ?? lines[0] ?? '';
}

function fileActions(items: readonly ContextItem[]): string[] {
  const actions = new Map<string, Set<string>>();
  for (const item of items) {
    if (item.kind !== 'tool_use' || !item.resourceKey) continue;
    const path = filePathOf(item.resourceKey);
    if (path === undefined) continue;
    const verb = item.toolCategory === 'file_write' ? 'modified' : 'read';
    actions.set(path, (actions.get(path) ?? new Set()).add(verb));
  }
  return [...actions].map(([path, verbs]) => `${path} (${[...verbs].join(', ')})`);
}

export function heuristicSections(request: SummaryRequest): SummarySections {
  const sections: Record<SectionTitle, string[]> = Object.fromEntries(SECTION_TITLES.map((title) => [title, []])) as unknown as Record<SectionTitle, string[]>;
  if (request.originalAsk) sections['Task and intent'].push(clip(request.originalAsk, 500));
  const matchesFocus = request.focus ? focusMatcher(request.focus) : undefined;
  const { items } = request;

  const full = (title: SectionTitle): boolean => sections[title].length >= PER_SECTION;
  // The agent's own open questions and TODOs are loops too: verbatim, so the verifier finds them.
  const agentLoops: string[] = [];
  items.forEach((item, index) => {
    if (item.kind === 'user' && !full('Task and intent')) pushUnique(sections['Task and intent'], `User (#${item.id}): ${clip(item.text, 200)}`, PER_SECTION);
    if (item.kind === 'assistant' || item.kind === 'thinking') {
      // Sentences are split once per message, and not at all when nothing could come of them.
      const loops = isOpenLoop(item.text);
      const notes = !full('Decisions and reasons') || !full('Facts established');
      for (const sentence of loops || notes ? sentencesOf(item.text) : []) {
        if (loops && isOpenLoop(sentence)) agentLoops.push(sentence);
        if (DECISION.test(sentence)) {
          if (!full('Decisions and reasons')) pushUnique(sections['Decisions and reasons'], `${clip(sentence)} (#${item.id})`);
        } else if (!full('Facts established') && FACT.test(sentence)) pushUnique(sections['Facts established'], `${clip(sentence)} (#${item.id})`);
      }
    }
    if (item.kind === 'tool_result' && (item.isError || ERROR_TEXT.test(item.text.slice(0, 4_000)))) {
      const cause = items
        .slice(index + 1, index + 4)
        .filter((next) => next.kind === 'assistant')
        .flatMap((next) => sentencesOf(next.text))
        .find((sentence) => ROOT_CAUSE.test(sentence));
      const where = item.toolName ? `${item.toolName}${item.resourceKey ? ` ${clip(resourceLabel(item.resourceKey), 80)}` : ''}` : 'tool';
      pushUnique(sections['Errors and root causes'], `${where}: ${clip(errorLine(item.text), 160)}${cause ? ` — cause: ${clip(cause, 160)}` : ''} (#${item.id})`);
    }
    if (matchesFocus && item.kind === 'tool_result' && matchesFocus(item.text)) {
      pushUnique(sections.Focus, `*FOCUS* #${item.id}: ${clip(item.text, 300)}`);
    }
  });

  sections.Files = fileActions(items).slice(-PER_SECTION * 2);
  sections.Constraints = request.pinned.constraints.map((entry) => entry.text);
  sections['Open loops'] = request.pinned.openLoops.map((entry) => entry.text);
  for (const loop of agentLoops) pushUnique(sections['Open loops'], loop, Number.POSITIVE_INFINITY);
  // Remaining work is what the span was about to do when it ended: read it from the end.
  for (const item of [...items].reverse()) {
    if (item.kind !== 'assistant' || sections['Remaining work'].length >= 4) continue;
    for (const sentence of sentencesOf(item.text)) if (REMAINING.test(sentence)) pushUnique(sections['Remaining work'], `${clip(sentence)} (#${item.id})`, 4);
  }
  for (const { itemId, phrases } of request.markers) {
    pushUnique(sections['Uncertainty points'], `#${itemId}: ${phrases.map((phrase) => `"${phrase}"`).join(', ')}`);
  }
  return mergePrevious(sections, request.previousSummary);
}

/** Iterative mode (S10): earlier bullets first, new ones after, duplicates once. */
function mergePrevious(sections: SummarySections, previous: string | undefined): SummarySections {
  if (!previous) return sections;
  const earlier = sectionsOfSummary(previous);
  const merged: SummarySections = {};
  for (const title of SECTION_TITLES) {
    const lines = [...(earlier[title] ?? [])];
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
    return Promise.resolve({ ok: true, text: heuristicSummary(request, this.builder) });
  }
}
