// One vocabulary for what fills a context: the panel (gauge, legend, map), the status bar tooltip
// and the CLI all name a category with these words, so a person reads the same thing everywhere.
import type { Category } from './messages';

export const CATEGORY_NAMES: Readonly<Record<Category, string>> = {
  system: 'system prompt',
  tools: 'tools',
  unrecorded: 'system + tools (not recorded)',
  reminder: 'reminders',
  user: 'your prompts',
  assistant: 'assistant',
  thinking: 'thinking',
  tool_use: 'tool calls',
  tool_result: 'tool results',
  summary: 'summaries',
};

/** Short forms that fit inside a gauge segment. */
export const CATEGORY_SHORT: Readonly<Record<Category, string>> = {
  system: 'sys',
  tools: 'tools',
  unrecorded: 'sys+tools',
  reminder: 'rem',
  user: 'you',
  assistant: 'asst',
  thinking: 'think',
  tool_use: 'calls',
  tool_result: 'results',
  summary: 'sum',
};

/** Why the engine keeps an item, as the map's hover says it (the engine's ids are for logs and JSON). */
export const PROTECTION_NAMES: Readonly<Record<string, string>> = {
  head: 'the start of the session',
  choice: 'your choice',
  'original-ask': 'your first request',
  'latest-prompt': 'your latest prompt',
  pinned: 'a sentence you pinned',
  prompt: 'your prompt',
  recent: 'recent turns',
  'in-flight': 'a call still running',
  epistemic: 'second thoughts (the agent doubted or corrected itself)',
  focus: 'your focus',
  pair: 'the other half of a call and its result',
};

/** One item's "second thoughts": the words where the agent doubted or corrected itself (wait, actually, …). */
export function secondThoughts(count: number): string {
  return `${count} second thought${count === 1 ? '' : 's'}`;
}

/** What each step of a compaction is called in the preview (engine tier names are for logs and JSON). */
export const TIER_NAMES: Readonly<Record<string, string>> = {
  choice: 'your choices',
  supersede: 'stale results stubbed (a newer read of the same thing exists)',
  'age-clear': 'old tool results cleared',
  dedupe: 'identical outputs deduplicated',
  truncate: 'long outputs cut to their cap',
  summarize: 'older turns summarised',
};
