// What a cleared or stubbed tool output says about itself, so the agent knows what was there and
// how to get it back: the tool, the path or command, the line range, the size, a failing run's
// verdict lines, and `ref: <archive id>#<item id>` — the archive entry that holds it (a recall tool
// takes that ref). The archive id exists only once `compact` has archived the context, so plans
// write a placeholder that `settleRefs` replaces.
import type { ContextItem } from '../model';
import { filePathOf, resourceLabel } from '../resource';
import { isFailure } from '../summarizers/facts';
import { thousands } from '../../base/format';
import { countNew, type LadderState, type TierReport } from './state';

/** Stands for the archive id until `compact` knows it; the preview shows it as is. */
export const PENDING_ARCHIVE_ID = 'archive-pending';

/**
 * An id of the shape `newArchiveId` gives (time, then 6 random characters): stubs are counted with
 * one in place of the placeholder, so what a tier plans is the size the applied stub will have —
 * a short placeholder made stubs look smaller than they came out, and the total met a target
 * the result then missed.
 */
const SAMPLE_ARCHIVE_ID = '2026-01-01T00-00-00-000Z-a1b2c3';

/** Tokens of a text the engine writes that may cite the pending archive: as it will be once settled. */
export function countStub(state: LadderState, text: string): number {
  return countNew(state, text.replaceAll(PENDING_ARCHIVE_ID, SAMPLE_ARCHIVE_ID));
}

export function archiveRef(archiveId: string, itemId: number): string {
  return `ref: ${archiveId}#${itemId}`;
}

/** Line numbers of a Read output ("  12\t…"): its first and last line. */
function lineRange(text: string): string | undefined {
  const first = /^\s*(\d+)\t/.exec(text);
  if (!first) return undefined;
  const last = /(?:^|\n)\s*(\d+)\t[^\n]*\n?$/.exec(text.slice(-2_000));
  return `lines ${first[1]}–${last?.[1] ?? first[1]}`;
}

function inputOf(item: ContextItem): Record<string, unknown> {
  const input = item.block?.input;
  return input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
}

/** "Read /p/a.ts lines 1–80", "Bash `npm test`", "Grep search:{…}": what the output came from. */
export function outputSource(result: ContextItem, call?: ContextItem): string {
  const tool = result.toolName ?? call?.toolName ?? 'tool';
  const input = call ? inputOf(call) : {};
  const path = filePathOf(result.resourceKey);
  if (path !== undefined) return [tool, path, result.toolCategory === 'file_write' ? undefined : lineRange(result.text)].filter(Boolean).join(' ');
  if (typeof input.command === 'string') return `${tool} \`${input.command.length > 120 ? `${input.command.slice(0, 119)}…` : input.command}\``;
  return result.resourceKey ? `${tool} ${resourceLabel(result.resourceKey).slice(0, 160)}` : tool;
}

/** The verdict lines of a failing run, kept in its stub: the failure must not vanish with the output. */
function verdict(result: ContextItem): string {
  if (!isFailure(result)) return '';
  const lines = result.text
    .slice(0, 20_000)
    .split('\n')
    .filter((line) => /^(?:not ok \d+|Exit code [1-9]|\s*\u2716|.*\bFAIL(?:ED)?\b)/.test(line))
    .slice(0, 4);
  return lines.length === 0 ? ' failed' : ` failed: ${lines.map((line) => line.trim()).join('; ')}`;
}

/** "Read /p/a.ts lines 1–80 (2,345 bytes, ~600 tokens); ref: …#12" */
export function describeOutput(result: ContextItem, call: ContextItem | undefined, archiveId = PENDING_ARCHIVE_ID): string {
  const size = `${thousands(Buffer.byteLength(result.text, 'utf8'))} bytes, ~${thousands(result.tokens)} tokens`;
  return `${outputSource(result, call)}${verdict(result)} (${size}); ${archiveRef(archiveId, result.id)}`;
}

/** The tool_use item of a tool_result, by `toolUseId`. */
export function callOf(state: LadderState, result: ContextItem): ContextItem | undefined {
  if (!result.toolUseId) return undefined;
  return state.context.items.find((item) => item.kind === 'tool_use' && item.toolUseId === result.toolUseId);
}

const PENDING_REF = new RegExp(`(?:;|\\.)? ?ref: ${PENDING_ARCHIVE_ID}#(\\d+)`, 'g');

/**
 * Puts the real archive id into every stub that cites the placeholder, or — with no archive, when
 * nothing was persisted to ask for — takes the ref out. Keeps the running total exact. A rewrite
 * that came out no smaller than what it replaced (a longer id, a recount after redaction) is
 * undone: the item stays whole, since a stub must never cost more than the content it stands for.
 */
export function settleRefs(state: LadderState, tiers: readonly TierReport[], archiveId: string | undefined): void {
  for (const planned of state.planned) {
    // Only a text citing the pending archive changes; a tier's own count of any other text stands.
    if (planned.fate !== 'compacted' || !planned.text.includes(`ref: ${PENDING_ARCHIVE_ID}#`)) continue;
    const report = tiers.find((tier) => tier.tier === planned.prunedBy);
    const settled = settledText(planned.text, archiveId);
    const settledTokens = countNew(state, settled);
    const whole = settledTokens >= planned.item.tokens;
    const tokensAfter = whole ? planned.item.tokens : settledTokens;
    const delta = tokensAfter - planned.tokensAfter;
    state.totalTokens += delta;
    // The tier that wrote the stub saved that much less (or more): the books still balance.
    if (report) report.tokensSaved -= delta;
    if (!whole) {
      Object.assign(planned, { text: settled, tokensAfter });
      continue;
    }
    if (report) report.acted -= 1;
    const by = planned.prunedBy ?? 'compacted';
    Object.assign(planned, {
      fate: 'preserved',
      reason: `kept whole: its ${by} text (${settledTokens} tokens) would not be smaller than the output (${planned.item.tokens})`,
      text: planned.item.text,
      tokensAfter,
    });
    delete planned.tier;
    delete planned.prunedBy;
  }
}

function settledText(text: string, archiveId: string | undefined): string {
  return text.replace(PENDING_REF, (match: string, id: string) => {
    if (archiveId !== undefined) return match.replace(`${PENDING_ARCHIVE_ID}#${id}`, `${archiveId}#${id}`);
    // Nothing archived, nothing to ask for: the stub ends where its ref began.
    return match.startsWith('.') ? '.' : '';
  });
}
