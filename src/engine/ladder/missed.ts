// A compaction that ends above its target says so in its one-line message, by how much and why:
// the floor no step removes and, above it, the heaviest items still kept with what protects each.
// The message is what the CLI prints first, the panel's preview shows and the log records, so the
// reason is never only in `--json`.
import { thousands } from '../../base/format';
import type { HoldingItem, PolicyFloor } from './escalate';

/** Items named in the message; the CLI's "held up by" line and `--json` list more. */
const NAMED = 3;

export interface TargetMiss {
  /** Tokens above the target. */
  byTokens: number;
  /** In words: what cannot go and what holds the rest up. */
  why: string;
}

/** How far above `target` a compaction ending at `tokens` is, and why; null when it meets it. */
export function targetMissOf(tokens: number, target: number, floor: PolicyFloor | undefined, heldBy: readonly HoldingItem[] | undefined): TargetMiss | null {
  if (!(target > 0) || tokens <= target) return null;
  const reasons: string[] = [];
  if (floor !== undefined && floor.tokens > 0) {
    const parts = (
      [
        ['system prompt', floor.system],
        ['tool definitions', floor.tools],
        ['pinned', floor.pinned],
        ['latest prompt', floor.latestPrompt],
        ['original ask', floor.originalAsk],
      ] as const
    )
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${name} ${thousands(count)}`);
    reasons.push(`${thousands(floor.tokens)} cannot be removed (${parts.join(', ')})${floor.tokens >= target ? ', more than the target itself' : ''}`);
  }
  const held = (heldBy ?? []).slice(0, NAMED).map((item) => `#${item.id} ${item.kind} ${thousands(item.tokens)} (${item.protection ?? 'no tier shortens it'})`);
  if (held.length > 0 && (floor === undefined || floor.tokens < target)) reasons.push(`held above that by ${held.join(', ')}`);
  return { byTokens: tokens - target, why: reasons.length > 0 ? reasons.join('; ') : 'nothing left that a tier may change' };
}

/** "target 30,000 missed by 1,040: …" */
export const targetMissText = (target: number, miss: TargetMiss): string => `target ${thousands(target)} missed by ${thousands(miss.byTokens)}: ${miss.why}`;
