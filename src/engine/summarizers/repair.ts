// A model's summary is checked before it replaces anything: one that is malformed (a few words, no
// structure) is rejected for the heuristic one, and one that drops a constraint, an open loop, a
// changed file, a failure or a loop closed later is repaired from the facts extracted from the span.
// Never accepted as is; what it states stale is flagged by verification like any summary's lines.
import { heuristicSections } from './heuristic';
import { markdownSummaryBuilder, type SectionTitle, type SummarySections } from './template';
import type { SummaryRequest } from './types';

/** Fewer words than this cannot describe a span worth summarising. */
const MIN_WORDS = 25;

export type SummaryCheck = { verdict: 'ok' } | { verdict: 'rejected'; why: string } | { verdict: 'repaired'; text: string; added: string[] };

/** The sections a summary must not lose, and how to tell a line of each is present. */
const REQUIRED: readonly { title: SectionTitle; key: (line: string) => string }[] = [
  { title: 'Constraints', key: (line) => line },
  { title: 'Open loops', key: (line) => line },
  // "TODO: x. — done (#36): …": the loop's own words must be there (else it is re-injected as open).
  { title: 'Done', key: (line) => line.split(/ \u2014 (?:done|passed|answered) \(#/)[0] ?? line },
  // "src/diff.js — modified (1 edit)": the path is what must be named.
  { title: 'Files', key: (line) => line.split(' — ')[0] ?? line },
  // "Bash `npm test` failed: not ok 9 - … — cause: … (#12)": the failing lines must be named.
  { title: 'Errors and root causes', key: (line) => /failed: (.*?)(?: \u2014 cause:| \(passed later| \(#\d+\)$)/.exec(line)?.[1]?.split('; ')[0] ?? line },
];

const normal = (text: string): string => text.replace(/\s+/g, ' ').toLowerCase();

function structured(text: string): boolean {
  return /^#{1,3} \S/m.test(text) || /^\s*(?:[-*\u2022]|\d+\.)\s+\S/m.test(text);
}

export function checkSummary(text: string, request: SummaryRequest): SummaryCheck {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  if (words < MIN_WORDS || !structured(text))
    return { verdict: 'rejected', why: `malformed (${words} word${words === 1 ? '' : 's'}${structured(text) ? '' : ', no sections or bullets'})` };
  const facts = heuristicSections(request);
  const haystack = normal(text);
  const missing: SummarySections = {};
  const added: string[] = [];
  for (const { title, key } of REQUIRED) {
    // Only changed files must be named; files merely read may be left out. Of what was done, only
    // the person's pinned loops must be: the rest is the model's to tell.
    const lines = (facts[title] ?? []).filter(
      (line) => (title !== 'Files' || line.includes('modified')) && (title !== 'Done' || request.pinned.openLoops.some((entry) => line.startsWith(entry.text))),
    );
    const lost = lines.filter((line) => !haystack.includes(normal(key(line))));
    if (lost.length === 0) continue;
    missing[title] = lost;
    added.push(`${title}: ${lost.length}`);
  }
  if (added.length === 0) return { verdict: 'ok' };
  // Our own section titles, so the next compaction merges them like any summary's.
  const appendix = `Carried over by Context Lens (the summary above left these out):\n\n${markdownSummaryBuilder(missing)}`;
  return { verdict: 'repaired', text: `${text.trim()}\n\n${appendix}`, added };
}
