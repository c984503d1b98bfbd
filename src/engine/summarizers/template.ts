// The structured summary template (S9): sections named after what an agent needs to continue —
// decisions with reasons, open loops, errors with causes, constraints — rather than a narrative.
// Also the anti-injection frame (S11) that every summary is wrapped in before it enters the context.
import { SUMMARY_TAG } from '../fromMessages';

export const SECTION_TITLES = [
  'Task and intent',
  'Decisions and reasons',
  'Facts established',
  'Files',
  'Errors and root causes',
  'Constraints',
  'Open loops',
  /** Loops and planned work the session completed later, each with the item that says so. */
  'Done',
  'Remaining work',
  'Uncertainty points',
  'Focus',
] as const;
export type SectionTitle = (typeof SECTION_TITLES)[number];

export type SummarySections = Partial<Record<SectionTitle, string[]>>;

/** Renders sections as a summary body (S25: replaceable). */
export type SummaryBuilder = (sections: SummarySections) => string;

export const markdownSummaryBuilder: SummaryBuilder = (sections) =>
  SECTION_TITLES.filter((title) => (sections[title]?.length ?? 0) > 0)
    .map((title) => `## ${title}\n${(sections[title] ?? []).map((line) => `- ${line}`).join('\n')}`)
    .join('\n\n');

/** Reads a body written by `markdownSummaryBuilder` back into sections, for iterative merging. */
export function parseSections(text: string): SummarySections | undefined {
  const sections: SummarySections = {};
  let current: SectionTitle | undefined;
  let found = false;
  for (const line of text.split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      current = SECTION_TITLES.find((title) => title === heading[1]);
      found ||= current !== undefined;
      continue;
    }
    const bullet = /^- (.*)$/.exec(line);
    if (current && bullet?.[1]) (sections[current] ??= []).push(bullet[1]);
  }
  return found ? sections : undefined;
}

/** Strips our frame from a summary item, leaving the body (for merging into the next summary). */
export function unframe(text: string): string {
  const match = new RegExp(`<${SUMMARY_TAG}[^>]*>\\n?([\\s\\S]*?)\\n?</${SUMMARY_TAG}>`).exec(text);
  return match?.[1] ?? text;
}

export interface FrameMeta {
  archiveId?: string;
  summarizedItems: number;
  summarizer: string;
}

/**
 * The anti-injection frame: a plain statement before the body plus tags around it, so the model
 * reads the body as quoted reference material and our own parser can find it again next round.
 */
export function frameSummary(body: string, prefix: string, meta: FrameMeta): string {
  const attributes = [`items="${meta.summarizedItems}"`, `by="${meta.summarizer}"`, ...(meta.archiveId ? [`archive="${meta.archiveId}"`] : [])].join(' ');
  return `${prefix}\n<${SUMMARY_TAG} ${attributes}>\n${body.trim()}\n</${SUMMARY_TAG}>`;
}
