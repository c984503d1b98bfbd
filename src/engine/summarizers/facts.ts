// What a summary must carry for the agent to resume, read from the span's items without a model:
// failures with the agent's stated cause, the files changed (then those read again and again),
// decisions with their reasons, facts, and the open loops the agent wrote itself. Shared by the
// heuristic summary and by the check that repairs an LLM summary that dropped them.
import type { ContextItem } from '../model';
import { filePathOf, resourceLabel } from '../resource';
import { isOpenLoop, sentencesOf } from '../policy/pinned';

/** A failing run: a test verdict, a non-zero exit, a stack trace. Not file content that says "error". */
const FAILURE_LINE =
  /^(?:not ok \d+\b.*|.*\bFAIL(?:ED)?\b.*|\s*\u2716.*|Exit code [1-9]\d*|.*\b(?:Error|Exception|Traceback)\b.*:.*|\s+at \S.*\(.*:\d+:\d+\))$/;
const VERDICT_LINE = /^(?:not ok \d+\b|\s*\u2716|.*\bFAIL(?:ED)?\b)/;
const ROOT_CAUSE = /\b(because|caused by|root cause|due to|the (?:issue|problem|bug) (?:is|was)|fails? (?:since|as))\b/i;
const STRONG_DECISION =
  /\b(replac(?:e|es|ed|ing)\b.*\bwith|switch(?:ed|ing)? to|decided|decide to|chose|going with|opted|instead of|rather than|settled on|we'll use|I'll use)\b/i;
const REASON = /\b(because|since|so that|due to|as it)\b/i;
const FACT = /\b(found|confirmed|turns out|is defined|is located|lives in|uses|contains|returns|passes|passed|succeeded|works|verified)\b/i;
const STRONG_FACT = /\b(found|confirmed|turns out|lives in|is located|is defined)\b/i;

const CONSULTED = new Set(['file_read', 'view_file']);

export interface FileActivity {
  /** Relative to the workspace when it is known. */
  path: string;
  writes: number;
  reads: number;
}

export interface SpanFacts {
  errors: string[];
  /** Changed files first, then files only read, most read first. */
  files: FileActivity[];
  decisions: string[];
  facts: string[];
  /** Open questions and TODOs the agent wrote (the person's come from the pinned set). */
  agentLoops: string[];
}

const LIMIT = 8;

function clip(text: string, max: number): string {
  const window = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = window.replace(/\s+/g, ' ').trim();
  return flat.length <= max && window === text ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Whether a tool result reports failure: `is_error`, a non-zero exit, a failing test or a stack trace. */
export function isFailure(item: ContextItem): boolean {
  if (item.kind !== 'tool_result') return false;
  if (item.isError) return true;
  // A file's content naming errors is not a failure; only what ran can fail.
  if (item.toolCategory !== undefined && CONSULTED.has(item.toolCategory)) return false;
  return item.text
    .slice(0, 20_000)
    .split('\n')
    .some((line) => VERDICT_LINE.test(line) || /^Exit code [1-9]/.test(line));
}

/** The lines that say what failed: test verdicts first, else the first failure-looking lines. */
function failureLines(text: string): string[] {
  const lines = text.slice(0, 20_000).split('\n');
  const verdicts = lines.filter((line) => VERDICT_LINE.test(line));
  const chosen = verdicts.length > 0 ? verdicts : lines.filter((line) => FAILURE_LINE.test(line) && !/^Exit code/.test(line));
  return (chosen.length > 0 ? chosen : lines.slice(0, 1)).slice(0, 3).map((line) => clip(line.trim(), 160));
}

/** The first later run of the same command (or test, or resource) that did not fail. */
export function passingRerun(items: readonly ContextItem[], failed: ContextItem): ContextItem | undefined {
  if (failed.resourceKey === undefined) return undefined;
  return items.find((later) => later.id > failed.id && later.kind === 'tool_result' && later.resourceKey === failed.resourceKey && !isFailure(later));
}

function commandOf(item: ContextItem): string {
  const input = (item.block?.input ?? {}) as Record<string, unknown>;
  return typeof input.command === 'string' ? `\`${clip(input.command, 80)}\`` : item.resourceKey ? clip(resourceLabel(item.resourceKey), 80) : '';
}

/** The directory all paths share, when it has more than one entry under it (else paths stay absolute). */
export function workspaceOf(paths: readonly string[]): string | undefined {
  const absolute = paths.filter((path) => path.startsWith('/'));
  if (absolute.length < 2) return undefined;
  let common = (absolute[0] ?? '').split('/').slice(0, -1);
  for (const path of absolute) {
    const parts = path.split('/');
    let length = 0;
    while (length < common.length && common[length] === parts[length]) length++;
    common = common.slice(0, length);
  }
  const root = common.join('/');
  const children = new Set(absolute.map((path) => path.slice(root.length + 1).split('/')[0]));
  return root.length > 1 && children.size > 1 ? root : undefined;
}

export function relativeTo(workspace: string | undefined, path: string): string {
  return workspace && path.startsWith(`${workspace}/`) ? path.slice(workspace.length + 1) : path;
}

function fileActivity(items: readonly ContextItem[], workspace: string | undefined): FileActivity[] {
  const byPath = new Map<string, FileActivity>();
  for (const item of items) {
    if (item.kind !== 'tool_use') continue;
    const path = filePathOf(item.resourceKey);
    if (path === undefined) continue;
    const entry = byPath.get(path) ?? { path: relativeTo(workspace, path), writes: 0, reads: 0 };
    if (item.toolCategory === 'file_write') entry.writes += 1;
    else entry.reads += 1;
    byPath.set(path, entry);
  }
  const all = [...byPath.values()];
  const changed = all.filter((file) => file.writes > 0);
  // Read-only files by how often they were read: the ones read again and again matter most.
  const read = all.filter((file) => file.writes === 0).sort((a, b) => b.reads - a.reads);
  return [...changed, ...read];
}

export function describeFile(file: FileActivity): string {
  const parts = [file.writes > 0 ? `modified (${file.writes} edit${file.writes === 1 ? '' : 's'})` : '', file.reads > 0 ? `read ${file.reads}×` : ''].filter(
    Boolean,
  );
  return `${file.path} — ${parts.join(', ')}`;
}

/** The agent's stated cause in the next assistant texts after a failure. */
function statedCause(items: readonly ContextItem[], from: number): string | undefined {
  const after = items.slice(from + 1, from + 6).filter((next) => next.kind === 'assistant' || next.kind === 'thinking');
  const sentences = after.flatMap((next) => sentencesOf(next.text));
  return (
    sentences.find((sentence) => ROOT_CAUSE.test(sentence) && /\bfail|error|bug|wrong|broken/i.test(sentence)) ??
    sentences.find((sentence) => ROOT_CAUSE.test(sentence))
  );
}

interface Ranked {
  text: string;
  score: number;
  id: number;
}

/** The `limit` best, in session order. */
function best(ranked: Ranked[], limit: number): string[] {
  const seen = new Set<string>();
  return ranked
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .filter((entry) => !seen.has(entry.text) && seen.add(entry.text))
    .slice(0, limit)
    .sort((a, b) => a.id - b.id)
    .map((entry) => `${entry.text} (#${entry.id})`);
}

/** `later`: items kept after the span, where a failure's re-run may be. */
export function spanFacts(items: readonly ContextItem[], workspace?: string, later: readonly ContextItem[] = []): SpanFacts {
  const root = workspace ?? workspaceOf(items.flatMap((item) => filePathOf(item.resourceKey) ?? []));
  const errors: string[] = [];
  const decisions: Ranked[] = [];
  const facts: Ranked[] = [];
  const agentLoops: string[] = [];
  items.forEach((item, index) => {
    if (isFailure(item) && errors.length < LIMIT) {
      const cause = statedCause(items, index);
      const resolved = passingRerun(items.slice(index + 1), item) ?? passingRerun(later, item);
      const what = `${item.toolName ?? 'tool'} ${commandOf(item)}`.trim();
      errors.push(
        `${what} failed: ${failureLines(item.text).join('; ')}${cause ? ` — cause: ${clip(cause, 240)}` : ''}${resolved ? ` (passed later, #${resolved.id})` : ''} (#${item.id})`,
      );
    }
    if (item.kind !== 'assistant' && item.kind !== 'thinking') return;
    // The agent's own prose counts more than its private reasoning.
    const weight = item.kind === 'assistant' ? 1 : 0;
    const loops = isOpenLoop(item.text);
    for (const sentence of sentencesOf(item.text)) {
      if (loops && isOpenLoop(sentence) && item.kind === 'assistant') agentLoops.push(sentence);
      const strong = STRONG_DECISION.test(sentence);
      if (strong || REASON.test(sentence))
        decisions.push({ text: clip(sentence, 240), score: (strong ? 2 : 0) + (REASON.test(sentence) ? 1 : 0) + weight - (strong ? 0 : 2), id: item.id });
      else if (FACT.test(sentence)) facts.push({ text: clip(sentence, 240), score: (STRONG_FACT.test(sentence) ? 2 : 0) + weight, id: item.id });
    }
  });
  return { errors, files: fileActivity(items, root), decisions: best(decisions, LIMIT), facts: best(facts, LIMIT), agentLoops: [...new Set(agentLoops)] };
}
