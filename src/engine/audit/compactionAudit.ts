// The audit of an agent's own compaction: what the person had established before it (their standing
// rules, decisions and open loops, and the files being worked on) and whether the agent's summary or
// the messages it kept still hold each one (carried) or not (dropped). Agent-neutral: it takes the
// engine's items of the context as it stood before the compaction and the text the agent kept.
import type { ContextItem } from '../model';
import { classifySentence } from '../policy/classify';
import { sentencesOf } from '../policy/pinned';
import { spanFacts } from '../summarizers/facts';

export type AuditKind = 'rule' | 'decision' | 'open-loop' | 'file';

export interface AuditEntry {
  kind: AuditKind;
  text: string;
  /** The item (of the context before the compaction) that said it; absent for a file. */
  itemId?: number;
}

export interface CompactionAudit {
  carried: AuditEntry[];
  dropped: AuditEntry[];
}

/** Words too common to show that a paraphrase kept a sentence. */
const STOP = new Set([
  'that',
  'this',
  'with',
  'from',
  'have',
  'will',
  'when',
  'what',
  'then',
  'than',
  'them',
  'they',
  'there',
  'their',
  'which',
  'would',
  'should',
  'could',
  'must',
  'never',
  'always',
  'only',
  'into',
  'also',
  'just',
  'your',
  'yours',
  'ours',
  'about',
  'after',
  'before',
  'because',
  'does',
  'make',
  'sure',
  'please',
  'keep',
  'every',
  'each',
  'other',
  'here',
  'were',
  'been',
  'being',
  'over',
  'under',
  'some',
  'such',
  'very',
  'more',
  'most',
  'less',
  'these',
  'those',
  'where',
  'while',
  'until',
  'decided',
  'decide',
  'lets',
]);
/** Of a sentence's own words, the share the kept text must hold for it to count as carried. */
const CARRIED_SHARE = 0.7;

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[\u2019']/g, '')
    .match(/[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]/g) ?? [];
const contentWords = (text: string): string[] => [...new Set(words(text).filter((word) => word.length >= 4 && !STOP.has(word)))];
/** A word's first five letters: "modify" and "modified", "retries" and "retrying" meet there. */
const stem = (word: string): string => word.slice(0, 5);
const flat = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Whether `kept` holds `text`: word for word, or most of its own words (an agent's summary
 * paraphrases: "never touch config/prod.yaml" may come back as "config/prod.yaml must not be modified").
 */
export function holds(kept: { flat: string; stems: ReadonlySet<string> }, text: string): boolean {
  if (kept.flat.includes(flat(text))) return true;
  const own = contentWords(text);
  if (own.length === 0) return false;
  const found = own.filter((word) => kept.stems.has(stem(word)) || kept.flat.includes(word)).length;
  return found / own.length >= CARRIED_SHARE;
}

/** The person's rules, decisions and open loops, the agent's own open loops, and the files it changed. */
export function establishedBefore(items: readonly ContextItem[], workspace?: string): AuditEntry[] {
  const entries: AuditEntry[] = [];
  const seen = new Set<string>();
  const add = (entry: AuditEntry): void => {
    const key = `${entry.kind}\u0000${flat(entry.text)}`;
    if (seen.has(key)) return;
    seen.add(key);
    entries.push(entry);
  };
  for (const item of items) {
    if (item.kind !== 'user') continue;
    for (const sentence of sentencesOf(item.text)) {
      const role = classifySentence(sentence);
      if (role === 'rule' || role === 'decision' || role === 'open-loop') add({ kind: role, text: sentence.trim(), itemId: item.id });
    }
  }
  const facts = spanFacts(items, workspace);
  for (const loop of facts.agentLoops) {
    const item = items.find((candidate) => candidate.kind === 'assistant' && candidate.text.includes(loop));
    add({ kind: 'open-loop', text: loop.trim(), ...(item ? { itemId: item.id } : {}) });
  }
  for (const file of facts.files) if (file.writes > 0) add({ kind: 'file', text: file.path });
  return entries;
}

/** Each entry established before the compaction, carried by `keptText` (the agent's summary and kept messages) or dropped. */
export function auditCompaction(before: readonly ContextItem[], keptText: string, workspace?: string): CompactionAudit {
  const kept = { flat: flat(keptText), stems: new Set(words(keptText).map(stem)) };
  const audit: CompactionAudit = { carried: [], dropped: [] };
  for (const entry of establishedBefore(before, workspace)) {
    // A file is carried when it is named, by its path or, in a summary that shortens it, its name.
    const carried =
      entry.kind === 'file'
        ? kept.flat.includes(entry.text.toLowerCase()) || kept.flat.includes((entry.text.split('/').at(-1) ?? entry.text).toLowerCase())
        : holds(kept, entry.text);
    (carried ? audit.carried : audit.dropped).push(entry);
  }
  return audit;
}

/** "dropped 1 rule, 1 decision" (nothing dropped: "dropped nothing"). */
export function droppedSentence(audit: CompactionAudit): string {
  const counts = new Map<AuditKind, number>();
  for (const entry of audit.dropped) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  if (counts.size === 0) return 'dropped nothing of yours';
  const names: Record<AuditKind, [string, string]> = {
    rule: ['rule', 'rules'],
    decision: ['decision', 'decisions'],
    'open-loop': ['open loop', 'open loops'],
    file: ['file', 'files'],
  };
  return `dropped ${[...counts].map(([kind, n]) => `${n} ${names[kind][n === 1 ? 0 : 1]}`).join(', ')}`;
}
