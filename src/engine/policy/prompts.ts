// The person's own prompts are kept word for word while they fit a budget (a share of the window):
// they are small (a long session's prompts are about 1 % of it) and they are what a resumed agent
// most needs. Newest first: a prompt that does not fit is summarised (its rules, requests and open
// questions are still pinned verbatim), and an older, smaller one may still fit. Pure.

export interface PromptSize {
  id: number;
  tokens: number;
}

/**
 * Ids of the prompts kept whole within `budgetTokens`, newest first. The `always` ones (the first
 * ask, the latest prompt) are kept by rules of their own and do not count: a long latest prompt must
 * not push the older rules out.
 */
export function promptsWithinBudget(prompts: readonly PromptSize[], budgetTokens: number, always: ReadonlySet<number> = new Set()): Set<number> {
  const kept = new Set(prompts.filter((prompt) => always.has(prompt.id)).map((prompt) => prompt.id));
  newestFirst(prompts, budgetTokens, kept);
  return kept;
}

/**
 * Ids of the prompts kept whole in a block that must fit the window it is put into (the pinned
 * block an agent's own compaction is handed and that goes back into every later turn): the `first`
 * ones are offered first, then the rest newest first, and every prompt kept counts, so the total
 * never passes `budgetTokens`. A first prompt larger than the budget is a paste: not kept whole, its
 * rules and open loops are still pinned one by one. (Kept whole outside the budget, a pasted first
 * prompt made the block alone overflow a small window: the agent compacted again on every turn.)
 */
export function promptsWithinCap(prompts: readonly PromptSize[], budgetTokens: number, first: ReadonlySet<number> = new Set()): Set<number> {
  const kept = new Set<number>();
  let left = budgetTokens;
  for (const prompt of prompts) {
    if (!first.has(prompt.id) || prompt.tokens > left) continue;
    kept.add(prompt.id);
    left -= prompt.tokens;
  }
  newestFirst(
    prompts.filter((prompt) => !first.has(prompt.id)),
    left,
    kept,
  );
  return kept;
}

/** Adds to `kept` the prompts not in it yet that fit what is left of `budgetTokens`, newest first. */
function newestFirst(prompts: readonly PromptSize[], budgetTokens: number, kept: Set<number>): void {
  let left = budgetTokens;
  for (let index = prompts.length - 1; index >= 0; index--) {
    const prompt = prompts[index];
    if (!prompt || kept.has(prompt.id) || prompt.tokens > left) continue;
    kept.add(prompt.id);
    left -= prompt.tokens;
  }
}

/** The budget in tokens: `percent` of the window. */
export const promptBudgetTokens = (windowTokens: number, percent: number): number => Math.max(0, Math.floor((windowTokens * percent) / 100));
