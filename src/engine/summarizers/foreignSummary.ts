// Summaries the engine did not write itself — an agent's own /compact summary — still have to be
// merged whole when the next compaction summarises past them (S10): their harness framing (the
// continuation preamble, reminders, closing instructions) is dropped, and their numbered sections
// are mapped onto our template so none of their content is clipped away.
import { parseSections, SECTION_TITLES, unframe, type SectionTitle, type SummarySections } from './template';

const REMINDERS = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
const PREAMBLE = /^\s*This session is being continued from a previous conversation[^\n]*\n+/;
const SUMMARY_LABEL = /^\s*Summary:\s*\n/;
/** Closing instructions agents append after the summary; they are about the old turn, not facts. */
const CLOSING =
  /\n\s*(?:If you need specific details from before compaction|Please continue the conversation from where we left|Continue the conversation from where it left off)[\s\S]*$/;
/** `1. Primary Request and Intent:` (Claude Code) or `## Heading` (markdown). */
const HEADING = /^\s*(?:\d+\.\s+([A-Z][^:\n]{2,60}):\s*(.*?)|#{1,3}\s+(.{3,60}?))\s*$/;
const LINE_CHARS = 400;

/** Which of our sections a foreign heading belongs in; the first match wins. */
const SECTION_OF: readonly [RegExp, SectionTitle][] = [
  [/pending|remaining|next step|current work|todo/i, 'Remaining work'],
  [/error|fix|bug|failure/i, 'Errors and root causes'],
  [/decision|problem solving|approach/i, 'Decisions and reasons'],
  [/file|code section/i, 'Files'],
  [/constraint|requirement/i, 'Constraints'],
  [/open (?:loop|question)/i, 'Open loops'],
  [/\b(?:done|completed|finished)\b/i, 'Done'],
  [/request|intent|task|user message/i, 'Task and intent'],
];

/** The body of any summary item: ours without its frame, a foreign one without the harness's framing. */
export function summaryBody(text: string): string {
  const body = unframe(text);
  if (body !== text) return body;
  return text.replace(REMINDERS, '').replace(PREAMBLE, '').replace(SUMMARY_LABEL, '').replace(CLOSING, '').trim();
}

function bulletOf(line: string, maxChars: number): string | null {
  const text = line.replace(/^\s*(?:[-*\u2022]|\d+[.)])\s+/, '').trim();
  if (text === '') return null;
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

/**
 * Sections of a summary body, ours or foreign; a body without headings becomes one section of its
 * lines. `maxLineChars` bounds each bullet (pass Infinity to keep sentences verbatim).
 */
export function sectionsOfSummary(body: string, maxLineChars = LINE_CHARS): SummarySections {
  const ours = parseSections(body);
  if (ours) return ours;
  const sections: SummarySections = {};
  let current: SectionTitle = 'Task and intent';
  let headed = false;
  let fencedLines: number | null = null;
  for (const line of body.split('\n')) {
    // Code excerpts do not survive as bullets; the archive holds them verbatim.
    if (/^\s*`{3,}/.test(line)) {
      if (fencedLines !== null) (sections[current] ??= []).push(`(code excerpt of ${fencedLines} lines omitted; kept in the archive)`);
      fencedLines = fencedLines === null ? 0 : null;
      continue;
    }
    if (fencedLines !== null) {
      fencedLines += 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const name = heading[1] ?? heading[3] ?? '';
      current =
        SECTION_TITLES.find((title) => title.toLowerCase() === name.toLowerCase()) ??
        SECTION_OF.find(([pattern]) => pattern.test(name))?.[1] ??
        'Facts established';
      headed = true;
      const rest = heading[2] ? bulletOf(heading[2], maxLineChars) : null;
      if (rest) (sections[current] ??= []).push(rest);
      continue;
    }
    const bullet = bulletOf(line, maxLineChars);
    if (bullet) (sections[current] ??= []).push(headed ? bullet : `Earlier summary: ${bullet}`);
  }
  if (fencedLines !== null) (sections[current] ??= []).push(`(unclosed code excerpt of ${fencedLines} lines omitted; kept in the archive)`);
  return sections;
}

/** Where a summary states the person's constraints and open loops; an agent's own puts them in the asks and pending work. */
const PIN_SECTIONS: readonly SectionTitle[] = ['Constraints', 'Open loops'];
const FOREIGN_PIN_SECTIONS: readonly SectionTitle[] = [...PIN_SECTIONS, 'Task and intent', 'Remaining work'];

/** The lines of a summary item that may carry pinned constraints and open loops forward. */
export function pinnableSummaryText(text: string): string {
  const body = summaryBody(text);
  const ours = parseSections(body);
  const sections = ours ?? sectionsOfSummary(body, Infinity);
  return (ours ? PIN_SECTIONS : FOREIGN_PIN_SECTIONS).flatMap((title) => sections[title] ?? []).join('\n');
}
