// What `compact` prints for a person (--json has every field): the gauges before and after, what
// each tier did, every item that changed, what the focus kept and why, the summary's head, the
// verification, and what was written.
import { type Context, focusWordsIn, type ArchiveRef, type CompactionResult, type SummaryInfo, type TierName } from '../engine';
import type { WrittenFork } from '../sessions/port';
import { clip, gauge, oneLine, percent, table, tokens } from './format';

export interface Shown {
  /** The context compacted: the focus-kept items' text is quoted from it. */
  context: Context;
  focus: string | undefined;
  agentAutoCompactTokens: number;
  agentName: string;
  archived: ArchiveRef | undefined;
  fork: WrittenFork | undefined;
}

const TIERS: readonly TierName[] = ['choice', 'supersede', 'age-clear', 'dedupe', 'truncate', 'summarize'];
/** The summary's first lines shown; the rest is in --json (and the fork, once written). */
export const SUMMARY_HEAD_LINES = 40;
const LINE_CHARS = 160;

/** What `compact` prints without --json. */
export function compactText(result: CompactionResult, shown: Shown): string {
  const { agentAutoCompactTokens, agentName, archived, fork } = shown;
  const { metrics } = result;
  const window = result.after.windowTokens;
  const lines = [
    // The engine's message already opens with "compacted …"; other outcomes say which they are.
    result.status === 'compacted' ? result.message : `${result.status}: ${result.message}`,
    '',
    `before ${gauge(metrics.tokensBefore, window, agentAutoCompactTokens, agentName).split('\n')[0] ?? ''}`,
    `after  ${gauge(metrics.tokensAfter, window, agentAutoCompactTokens, agentName)}`,
    `saved  ${tokens(metrics.savedTokens)} tokens (${percent(metrics.savingsPercent)}), target ${tokens(metrics.targetTokens)} ${metrics.targetMet ? 'met' : 'not met'}`,
    '',
    table(
      ['TIER', 'ITEMS', 'SAVED'],
      [
        ...TIERS.filter((tier) => tier !== 'choice' || metrics.perTier.choice.items > 0).map((tier) => [
          tier === 'choice' ? 'your choices' : tier,
          String(metrics.perTier[tier].items),
          tokens(metrics.perTier[tier].tokensSaved),
        ]),
        // Shown so the column adds up to the saving above.
        ...(metrics.reinjectedTokens > 0 ? [['re-injected', String(result.verification?.reinjected.length ?? 0), tokens(-metrics.reinjectedTokens)]] : []),
      ],
      [1, 2],
    ),
  ];
  lines.push(...escalationLines(result));
  const changed = result.items.filter((item) => item.fate !== 'preserved');
  if (changed.length > 0) {
    lines.push(
      '',
      table(
        ['#', 'KIND', 'FATE', 'TIER', 'TOKENS', 'REASON'],
        changed.map((item) => [
          String(item.id),
          item.toolName ? `${item.kind} ${item.toolName}` : item.kind,
          item.fate,
          item.tier ?? '',
          `${tokens(item.tokensBefore)} → ${tokens(item.tokensAfter)}`,
          item.reason,
        ]),
        [0, 4],
      ),
    );
  }
  lines.push(...focusLines(result, shown));
  if (result.summary) lines.push(...summaryLines(result.summary, fork));
  const verification = result.verification;
  if (verification) {
    lines.push(
      '',
      `Verification: ${verification.ok ? 'ok' : 'needs a look'} — constraints ${verification.constraints.filter((c) => c.present).length}/${verification.constraints.length} present, open loops ${verification.openLoopsBefore} → ${verification.openLoopsAfter}, files lost ${verification.filesLost.length}${verification.reinjected.length > 0 ? `, re-injected ${verification.reinjected.length}` : ''}${verification.contradictions.length > 0 ? `, stale lines ${verification.contradictions.length}` : ''}`,
      // Which summary line a later item contradicts, and what that item says.
      ...verification.contradictions.map((entry) => `  stale: "${oneLine(entry.line, 120)}" — #${entry.laterItemId} says: "${oneLine(entry.laterText, 120)}"`),
    );
  }
  if (metrics.redactions > 0) lines.push('', `${metrics.redactions} secret${metrics.redactions === 1 ? '' : 's'} redacted`);
  if (result.overflow) lines.push('', `Warning: ${result.overflow.message}`);
  if (archived) lines.push(`Archived the original context (redacted): ${archived.location}`);
  if (fork) lines.push('', `Wrote ${fork.path}`, ...(fork.notes ?? []).map((note) => `Note: ${note}`), `Resume it with: ${fork.resumeCommand}`);
  return lines.join('\n');
}

/**
 * What the engine did beyond the gentle tiers to reach the target, in order, and — when the target
 * is still missed — the floor no step can remove, so the person sees why.
 */
function escalationLines(result: CompactionResult): string[] {
  const { metrics, floor } = result;
  const lines = result.escalation.map(
    (step, index) => `escalation ${index + 1}: ${step.detail} → ${tokens(step.tokensAfter)} tokens${step.targetMet ? ' (target met)' : ''}`,
  );
  if (floor && !metrics.targetMet && result.status === 'compacted') {
    const parts = [
      ['system prompt', floor.system],
      ['tool definitions', floor.tools],
      ['pinned', floor.pinned],
      ['latest prompt', floor.latestPrompt],
      ['original ask', floor.originalAsk],
    ] as const;
    lines.push(
      `floor: ${tokens(floor.tokens)} tokens cannot be removed (${parts
        .filter(([, count]) => count > 0)
        .map(([name, count]) => `${name} ${tokens(count)}`)
        .join(', ')})`,
    );
  }
  if ((result.heldBy?.length ?? 0) > 0 && (!metrics.targetMet || result.status === 'noop')) {
    lines.push(
      `held up by: ${(result.heldBy ?? []).map((held) => `#${held.id} ${held.kind} ${tokens(held.tokens)}${held.protection ? ` (${held.protection})` : ''}`).join(', ')}`,
    );
  }
  return lines.length === 0 ? [] : ['', ...lines];
}

/**
 * The items kept verbatim because they match the focus, each with the focus words it holds and the
 * passage where the first one is, so the person sees why; or that the focus kept nothing the
 * ladder would otherwise have touched.
 */
function focusLines(result: CompactionResult, { context, focus }: Shown): string[] {
  if (!focus) return [];
  if (result.focusKept.length === 0) return ['', `Focus "${clip(focus, 60)}": matched nothing the ladder would have touched (nothing kept for it)`];
  const kept = result.focusKept.map((id) => context.items[id]).filter((item) => item !== undefined);
  const total = kept.reduce((sum, item) => sum + item.tokens, 0);
  const rows = kept.map((item) => {
    const words = focusWordsIn(focus, item.text);
    return [
      `#${item.id}`,
      item.toolName ? `${item.kind} ${item.toolName}` : item.kind,
      tokens(item.tokens),
      words.join(', '),
      `"${passage(item.text, words)}"`,
    ];
  });
  return [
    '',
    `Kept verbatim for the focus "${clip(focus, 60)}": ${kept.length} item${kept.length === 1 ? '' : 's'}, ${tokens(total)} tokens`,
    indent(table(['#', 'KIND', 'TOKENS', 'MATCHED', 'TEXT'], rows, [2])),
  ];
}

/** The summary's head; where the whole text is when it is longer. */
function summaryLines(summary: SummaryInfo, fork: WrittenFork | undefined): string[] {
  const lines = [
    `Summary by ${summary.summarizer}${summary.fellBack ? ` (fell back${summary.error ? `: ${summary.error}` : ''})` : ''}: ${summary.summarizedItems} items, ${tokens(summary.summarizedTokens)} → ${tokens(summary.tokens)} tokens`,
  ];
  if (summary.repaired) lines.push(`  repaired from the session (the summary left these out): ${summary.repaired.join(', ')}`);
  const text = summary.text.trimEnd().split('\n');
  lines.push(...text.slice(0, SUMMARY_HEAD_LINES).map((line) => `  │ ${clip(line.trimEnd(), LINE_CHARS)}`.trimEnd()));
  if (text.length > SUMMARY_HEAD_LINES) {
    const where = fork ? `in the fork (${fork.path}) and in --json` : 'in --json (.summary.text)';
    lines.push(`  │ … ${text.length - SUMMARY_HEAD_LINES} more lines: the whole summary is ${where}`);
  }
  return ['', ...lines];
}

/** About 90 characters of `text` from a little before the first focus word it holds (its start when none is found as written). */
function passage(text: string, words: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const at = Math.min(...words.map((word) => lower.indexOf(word)).filter((index) => index >= 0), Number.MAX_SAFE_INTEGER);
  const from = at === Number.MAX_SAFE_INTEGER || at < 30 ? 0 : at - 30;
  const cut = clip(flat.slice(from), 90);
  return from > 0 ? `…${cut}` : cut;
}

const indent = (block: string): string =>
  block
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
