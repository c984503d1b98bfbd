// Maps tool names to the categories of seed 002. Claude Code's tool names are known exactly; other
// agents' tools fall back to name patterns so unknown tools still land somewhere sensible.
import type { ToolCategory } from './model';

const EXACT: Readonly<Record<string, ToolCategory>> = {
  Read: 'file_read',
  NotebookRead: 'file_read',
  Write: 'file_write',
  Edit: 'file_write',
  MultiEdit: 'file_write',
  NotebookEdit: 'file_write',
  Bash: 'command_execution',
  BashOutput: 'command_execution',
  KillShell: 'command_execution',
  Grep: 'search',
  Glob: 'search',
  WebSearch: 'search',
  LS: 'list_directory',
  WebFetch: 'view_file',
  Task: 'other',
  TodoWrite: 'other',
};

/** Order matters: "view_file" must win over the generic "file" read pattern, tests over commands. */
const PATTERNS: readonly [RegExp, ToolCategory][] = [
  [/view_?file/i, 'view_file'],
  [/pytest|run_?tests?|jest|vitest|mocha/i, 'test_execution'],
  [/write|edit|apply_?diff|patch|replace|create_?file|str_replace/i, 'file_write'],
  [/read|cat\b|open_?file/i, 'file_read'],
  [/list_?dir|^ls$|directory/i, 'list_directory'],
  [/grep|search|ripgrep|^rg$|^find$|glob/i, 'search'],
  [/bash|shell|terminal|command|exec|run/i, 'command_execution'],
];

/** Shell commands that run a test suite: their output is test output, not an arbitrary command's. */
const TEST_COMMAND = /(^|[\s;&|(])(npm (run )?test|yarn test|pnpm test|npx (jest|vitest|mocha)|pytest|python -m pytest|go test|cargo test|mvn test|gradle test|node --test|dotnet test|rspec|phpunit)\b/;

export function categorizeTool(name: string, input?: Record<string, unknown>): ToolCategory {
  const exact = EXACT[name];
  const category = exact ?? PATTERNS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
  if (category === 'command_execution' && typeof input?.command === 'string' && TEST_COMMAND.test(input.command)) return 'test_execution';
  return category;
}
