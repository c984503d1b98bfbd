// Scoring a compaction as a reader resuming from it would: of the planted facts whose source was
// compacted, how many the output still states; whether a revoked rule comes back as a constraint
// (in what we wrote: the summary and the pinned block, and in the PreCompact hook's output).
import type { CompactionResult, Context } from '../../src/engine';
import type { PlantedFact, Session } from './facts';

const normal = (text: string): string => text.replace(/\s+/g, ' ').toLowerCase();

export function holds(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? normal(text).includes(normal(pattern)) : pattern.test(text);
}

export interface FactScore {
  fact: PlantedFact;
  /** No item holding the source was kept verbatim. */
  compacted: boolean;
  reached: boolean;
  /** The source was not found in the context at all: a planting mistake, reported. */
  missing: boolean;
}

/** All output text: kept items, stubs, the summary and the pinned block, as the agent would read it. */
export function outputText(result: CompactionResult): string {
  return result.after.items.map((item) => item.text).join('\n');
}

export function scoreFacts(session: Session, context: Context, result: CompactionResult): FactScore[] {
  const output = outputText(result);
  return session.facts.map((fact) => {
    const sources = context.items.filter((item) => holds(item.text, fact.source));
    const kept = sources.some((item) => result.items[item.id]?.fate === 'preserved');
    return { fact, compacted: sources.length > 0 && !kept, reached: fact.expect.every((pattern) => holds(output, pattern)), missing: sources.length === 0 };
  });
}

/** The rule's own words up to its first colon or semicolon ("Keep Node 18 compatibility"). */
export function ruleHead(rule: string): string {
  return rule.split(/[:;]/)[0]?.trim() ?? rule;
}

const MARKED = /\b(revoked|superseded|no longer|cancel(?:l)?ed|withdrawn|lifted)\b/i;

/**
 * Lines of `text` that present a revoked rule without saying it was revoked. `text` is what we
 * wrote (summary, pinned block, hook output), never the person's own messages kept verbatim.
 */
export function revokedPresented(text: string, revoked: readonly string[]): string[] {
  const heads = revoked.map(ruleHead);
  return text.split('\n').filter((line) => heads.some((head) => holds(line, head)) && !MARKED.test(line));
}

/** What the compaction itself wrote: the summary and whatever was re-injected. */
export function writtenText(result: CompactionResult): string {
  return [result.summary?.text ?? '', ...(result.verification?.reinjected ?? [])].join('\n');
}
