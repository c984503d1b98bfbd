// The audit of an agent's own compaction: what the person had established before it (their standing
// rules, decisions and open loops, and the files being worked on) and whether the agent's summary or
// the messages it kept still hold each one (carried) or not (dropped). Agent-neutral: it takes the
// engine's items of the context as it stood before the compaction and the text the agent kept.
import type { ContextItem } from '../model';
import { classifySentence } from '../policy/classify';
import { stemOf } from '../policy/focus';
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
const flat = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** What a kept text is matched against: its flattened text and the (Porter) stems of its whole words. */
export interface KeptText {
  flat: string;
  stems: ReadonlySet<string>;
}

/**
 * The kept text's word stems, a path or identifier also by its parts ("src/auth/login.ts" holds "auth"
 * and "login"). Whole words only: "works" is not in "workspace", nor "change" in "changelog".
 */
export function keptText(text: string): KeptText {
  const stems = new Set<string>();
  for (const word of words(text)) {
    stems.add(stemOf(word));
    if (/[./_-]/.test(word)) for (const part of word.split(/[./_-]+/)) if (part !== '') stems.add(stemOf(part));
  }
  return { flat: flat(text), stems };
}

/**
 * Whether `needle` occurs in `hay` with nothing joined on either side: no character `joins` matches
 * before it or after it, and no "." followed by a letter after it (a sentence's full stop is fine,
 * but "a.ts" is not in "a.tsx" nor in "a.ts.bak").
 */
function atBoundary(hay: string, needle: string, joinsBefore: RegExp, joinsAfter: RegExp): boolean {
  if (needle === '') return false;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = hay[at - 1] ?? ' ';
    const after = hay.slice(at + needle.length, at + needle.length + 2);
    const joinedAfter = joinsAfter.test(after[0] ?? ' ') || (after[0] === '.' && /[a-z0-9]/.test(after[1] ?? ' '));
    if (!joinsBefore.test(before) && !joinedAfter) return true;
  }
  return false;
}
const WORD_CHAR = /^[a-z0-9_]$/;
/** Before a file's name, "/" does not join ("src/a.ts" names "a.ts"); "-", "_" and "." do ("my-a.ts"). */
const PATH_BEFORE = /^[a-z0-9_.-]$/;
const PATH_AFTER = /^[a-z0-9_/-]$/;

/**
 * Whether `kept` holds `text`: word for word at word boundaries, or most of its own words as whole
 * words or their stems (an agent's summary paraphrases: "never touch config/prod.yaml" may come back as
 * "config/prod.yaml must not be modified"). A word only inside a longer word does not count.
 */
export function holds(kept: KeptText, text: string): boolean {
  if (atBoundary(kept.flat, flat(text), WORD_CHAR, WORD_CHAR)) return true;
  const own = contentWords(text);
  if (own.length === 0) return false;
  // A path the rule names ("prod.yaml") is found as a whole path, also at the end of a longer one.
  const found = own.filter((word) => kept.stems.has(stemOf(word)) || (/[./_-]/.test(word) && atBoundary(kept.flat, word, PATH_BEFORE, PATH_AFTER))).length;
  return found / own.length >= CARRIED_SHARE;
}

/** Whether `kept` names a file: its path, or (a summary shortens it) its name, each as a whole path. */
export function namesFile(kept: KeptText, path: string): boolean {
  const lower = path.toLowerCase();
  const name = lower.split('/').at(-1) ?? lower;
  return atBoundary(kept.flat, lower, PATH_BEFORE, PATH_AFTER) || atBoundary(kept.flat, name, PATH_BEFORE, PATH_AFTER);
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
export function auditCompaction(before: readonly ContextItem[], keptTextOf: string, workspace?: string): CompactionAudit {
  const kept = keptText(keptTextOf);
  const audit: CompactionAudit = { carried: [], dropped: [] };
  for (const entry of establishedBefore(before, workspace)) {
    // A file is carried when it is named, by its path or, in a summary that shortens it, its name.
    const carried = entry.kind === 'file' ? namesFile(kept, entry.text) : holds(kept, entry.text);
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
