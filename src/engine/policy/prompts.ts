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
  let left = budgetTokens;
  for (let index = prompts.length - 1; index >= 0; index--) {
    const prompt = prompts[index];
    if (!prompt || kept.has(prompt.id) || prompt.tokens > left) continue;
    kept.add(prompt.id);
    left -= prompt.tokens;
  }
  return kept;
}

/** The budget in tokens: `percent` of the window. */
export const promptBudgetTokens = (windowTokens: number, percent: number): number => Math.max(0, Math.floor((windowTokens * percent) / 100));
