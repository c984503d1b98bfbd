// What the followed session has cost, kept with the snapshot it was read for: read after the
// context is shown (every call of the file and its subagents, through the session's handle) and
// again when the prices change. Free of `vscode`.
import type { PriceIndex } from '../../pricing';
import type { BreakEvenView, CostView } from '../../protocol/messages';
import type { CostReport } from '../../sessions/costReport';
import type { SessionHandle } from '../../sessions/port';
import { breakEvenOf, costViewOf, readAudits, readCosts } from './costs';
import type { LiveSnapshot } from './liveSnapshot';

export class CostKeeper {
  private costs: { of: LiveSnapshot; report: CostReport; view: CostView } | null = null;

  /** The costs of `snapshot`; null until read (or when reading them failed, or for another snapshot). */
  of(snapshot: LiveSnapshot | null): { report: CostReport; view: CostView } | null {
    return this.costs !== null && this.costs.of === snapshot ? this.costs : null;
  }

  /**
   * Reads and prices the calls of `snapshot`'s session; false when `current()` moved on meanwhile
   * (a newer read reads its own). Throws what pricing throws.
   */
  async read(prices: PriceIndex, problem: string | null, handle: SessionHandle, snapshot: LiveSnapshot, current: () => LiveSnapshot | null): Promise<boolean> {
    const report = await readCosts(prices, handle, snapshot);
    // An audit that cannot be read leaves History without it, never the costs.
    const audits = await readAudits(snapshot).catch(() => []);
    if (current() !== snapshot) return false;
    this.costs = { of: snapshot, report, view: { ...costViewOf(report, problem, snapshot.context.workspace), audits } };
    return true;
  }

  /** Does compacting `beforeTokens` to `afterTokens` pay, at the latest priced call's rates. */
  breakEven(prices: PriceIndex, snapshot: LiveSnapshot | null, beforeTokens: number, afterTokens: number): BreakEvenView | null {
    return snapshot === null ? null : breakEvenOf(prices, snapshot, beforeTokens, afterTokens);
  }
}
