// Tier 3 (S8): per-tool truncation. Identical outputs are deduplicated first (free and lossless),
// then outputs above their category's cap keep their head, tail or both with a marker saying how
// much was cut. Biggest outputs go first: fewest items touched for the most tokens.
import { contentKey } from '../tokens/cache';
import type { ContextItem } from '../model';
import type { TruncateMode, TruncatePolicy } from '../options';
import { countNew, isOpen, isRecentOnly, replace, targetMet, type LadderState, type PlannedItem, type TierReport } from './state';
import { thousands } from '../../base/format';

/** A custom pruner (S25) returns the replacement text, or undefined to leave the item alone. */
export type ToolPruner = (item: ContextItem, policy: TruncatePolicy) => string | undefined;

export function elisionMarker(tokens: number, chars: number): string {
  return `[… ${thousands(tokens)} tokens (${thousands(chars)} chars) elided …]`;
}

/** Any marker `elisionMarker` writes: the output was truncated by an earlier run. */
export const ELISION_PATTERN = /\[\u2026 [\d,]+ tokens \([\d,]+ chars\) elided \u2026\]/;

/** Moves a cut to the nearest line break within 20 % of the kept length, so lines stay whole. */
function snapToLine(text: string, cut: number, direction: 'back' | 'forward', slack: number): number {
  const found = direction === 'back' ? text.lastIndexOf('\n', cut) : text.indexOf('\n', cut);
  // Cut just after the line break: the kept head ends with a full line, the kept tail starts one.
  return found === -1 || Math.abs(found - cut) > slack ? cut : found + 1;
}

/**
 * The opening lines that say where the whole output was saved (Claude Code's `<persisted-output>`
 * preview, "Full output saved to: …"): a tail cut keeps them, or the model could no longer read the
 * output back.
 */
export function savedOutputPointer(text: string): string {
  const lines = text.slice(0, 1_000).split('\n').slice(0, 4);
  const at = lines.findIndex((line) => /\b(?:full output|output) (?:was )?saved to\b/i.test(line));
  return at === -1 ? '' : `${lines.slice(0, at + 1).join('\n')}\n`;
}

/**
 * Cuts `text` (of `tokens` tokens) down to about `capTokens`. Character positions are derived from
 * the item's own chars-per-token ratio: re-tokenizing every candidate would dominate the plan's
 * cost on large contexts, and a proportional estimate is within a few percent for one text.
 */
export function truncateText(text: string, tokens: number, mode: TruncateMode, capTokens: number): { text: string; keptChars: number } {
  const charsPerToken = text.length / Math.max(1, tokens);
  const keepChars = Math.max(1, Math.floor(capTokens * charsPerToken));
  if (keepChars >= text.length) return { text, keptChars: text.length };
  const slack = Math.floor(keepChars * 0.2);
  const marker = (keptChars: number): string => elisionMarker(Math.round((text.length - keptChars) / charsPerToken), text.length - keptChars);
  if (mode === 'head') {
    const cut = snapToLine(text, keepChars, 'back', slack);
    return { text: `${text.slice(0, cut)}\n${marker(cut)}`, keptChars: cut };
  }
  if (mode === 'tail') {
    // The pointer counts against the cap: the tail gives up what it takes.
    const pointer = savedOutputPointer(text);
    const from = Math.max(pointer.length, snapToLine(text, text.length - Math.max(1, keepChars - pointer.length), 'forward', slack));
    const kept = pointer.length + text.length - from;
    return { text: `${pointer}${marker(kept)}\n${text.slice(from)}`, keptChars: kept };
  }
  const headCut = snapToLine(text, Math.floor(keepChars / 2), 'back', slack);
  const tailFrom = Math.max(headCut, snapToLine(text, text.length - Math.ceil(keepChars / 2), 'forward', slack));
  const kept = headCut + (text.length - tailFrom);
  return { text: `${text.slice(0, headCut)}\n${marker(kept)}\n${text.slice(tailFrom)}`, keptChars: kept };
}

function modeLabel(mode: TruncateMode): string {
  return mode === 'head+tail' ? 'head+tail' : `${mode} only`;
}

export function runDedupe(state: LadderState): TierReport {
  const report: TierReport = { tier: 'dedupe', acted: 0, tokensSaved: 0 };
  const newest = new Map<string, PlannedItem>();
  // Newest → oldest: the newest copy stays, older identical copies point at it.
  for (let index = state.planned.length - 1; index >= 0; index--) {
    if (targetMet(state)) break;
    const planned = state.planned[index];
    if (!planned || planned.item.kind !== 'tool_result' || planned.item.text.length < 64) continue;
    const key = contentKey(planned.item.text);
    const copy = newest.get(key);
    if (!copy) {
      newest.set(key, planned);
      continue;
    }
    if (!isOpen(planned)) continue;
    const text = `[Identical to the output of #${copy.item.id}; omitted here.]`;
    const tokensAfter = countNew(state, text);
    if (tokensAfter >= planned.tokensAfter) continue;
    report.tokensSaved += replace(state, planned, {
      fate: 'compacted',
      reason: `duplicate of #${copy.item.id} (identical output)`,
      tier: 'dedupe',
      text,
      tokensAfter,
    });
    report.acted += 1;
  }
  return report;
}

export function runTruncate(state: LadderState, pruner?: ToolPruner): TierReport {
  const report: TierReport = { tier: 'truncate', acted: 0, tokensSaved: 0 };
  const perCategory = state.options.truncate.perCategory;
  const recent = (planned: PlannedItem): boolean => state.cutRecentOutputs === true && isRecentOnly(state, planned);
  const capOf = (planned: PlannedItem): number => {
    const cap = perCategory[planned.item.toolCategory ?? 'other'].capTokens;
    return state.recentCapTokens !== undefined && recent(planned) ? Math.min(cap, state.recentCapTokens) : cap;
  };
  const candidates = state.planned
    .filter((planned) => planned.item.kind === 'tool_result' && (isOpen(planned) || recent(planned)))
    .filter((planned) => planned.tokensAfter > capOf(planned))
    .sort((a, b) => b.tokensAfter - a.tokensAfter);
  for (const planned of candidates) {
    if (targetMet(state)) break;
    // Escalation keeps both ends of a recent output: the start says what it is, the end how it ended.
    const inRecent = recent(planned);
    const category = perCategory[planned.item.toolCategory ?? 'other'];
    const policy = inRecent ? { ...category, mode: 'head+tail' as const, capTokens: capOf(planned) } : category;
    let text: string;
    let tokensAfter: number;
    let reason: string;
    if (pruner) {
      const pruned = pruner(planned.item, policy);
      if (pruned === undefined) continue;
      text = pruned;
      tokensAfter = countNew(state, pruned);
      reason = 'pruned by custom tool pruner';
    } else {
      const cut = truncateText(planned.item.text, planned.item.tokens, policy.mode, policy.capTokens);
      text = cut.text;
      // The marker's own size barely depends on its numbers; a fixed sample avoids counting each one.
      const markerTokens = countNew(state, elisionMarker(0, 0));
      tokensAfter = Math.round((planned.item.tokens * cut.keptChars) / Math.max(1, planned.item.text.length)) + markerTokens;
      reason = `truncated ${modeLabel(policy.mode)} (cap ${thousands(policy.capTokens)} tokens)${inRecent ? ', in the recent window: the target was missed without it' : ''}`;
    }
    if (tokensAfter >= planned.tokensAfter) continue;
    report.tokensSaved += replace(state, planned, { fate: 'compacted', reason, tier: 'truncate', text, tokensAfter });
    report.acted += 1;
  }
  return report;
}
