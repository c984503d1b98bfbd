// The person's words the Connect tests carry through each agent's own compaction: rules and open
// loops people typed into real sessions (test/fixtures/phrasings, collected verbatim, not written
// for these tests), a pasted log big enough that the agent's compaction keeps none of the earlier
// prompts, and the prompts a session sends in order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Phrasing {
  readonly text: string;
  readonly role: string;
  readonly fixture: string;
}

const corpus = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'phrasings', 'rules.json'), 'utf8')) as { collected: Phrasing[] };
const pick = (fixture: string, role: string): string[] =>
  corpus.collected.filter((entry) => entry.fixture === fixture && entry.role === role).map((entry) => entry.text);

export const PINNED_RULES = pick('codemie-2.0.76', 'rule').slice(0, 3);
export const PINNED_LOOPS = [...pick('codemie-2.0.76', 'open-loop'), ...pick('codemie-0.77.0 (codex)', 'open-loop')];
/** Everything that must reach the first request after the agent's own compaction. */
export const PINNED_WORDS = [...PINNED_RULES, ...PINNED_LOOPS];

/** About `lines` × 75 characters of a sync worker's log, pasted by the person. */
export function pastedLog(lines: number): string {
  return Array.from(
    { length: lines },
    (_, at) => `2026-11-28T01:${String(at % 60).padStart(2, '0')}:00Z INFO sync worker ${at} flushed batch ${at * 7} in ${(at * 13) % 97} ms`,
  ).join('\n');
}

/** Rules, then open loops, then the log, then a prompt the compaction runs before. */
export function pinnedSessionPrompts(logLines: number): string[] {
  return [PINNED_RULES.join(' '), PINNED_LOOPS.join(' '), `here is the sync log:\n${pastedLog(logLines)}`, 'carry on with the sync work'];
}
