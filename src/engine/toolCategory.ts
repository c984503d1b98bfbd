// Maps tool names to the categories of seed 002. Claude Code's and Codex's tool names are known
// exactly; other agents' tools fall back to name patterns so unknown tools still land somewhere
// sensible. A shell command that only prints a file is a file read; one that runs tests, test output.
import type { ToolCategory } from './model';
import { shellFileRead } from './shellCommands';

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
  // Codex CLI
  exec_command: 'command_execution',
  write_stdin: 'command_execution',
  shell: 'command_execution',
  local_shell: 'command_execution',
  apply_patch: 'file_write',
  view_image: 'view_file',
  update_plan: 'other',
};

/**
 * Shell tools that are the agent's only way to read files (Codex): there, a command that just
 * prints a file is a file read. Claude Code has a Read tool, so its Bash commands stay commands.
 */
const FILE_READING_SHELLS = new Set(['exec_command', 'shell', 'local_shell']);

/** Where a shell tool's input holds the command line (Claude Code's Bash, Codex's exec_command). */
const COMMAND_FIELDS = ['command', 'cmd'] as const;

/** The command line of a shell tool's input, when it has one. */
export function commandOf(input: Record<string, unknown> | undefined): string | undefined {
  for (const field of COMMAND_FIELDS) if (typeof input?.[field] === 'string') return input[field];
  return undefined;
}

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
  const command = category === 'command_execution' ? commandOf(input) : undefined;
  if (command !== undefined && TEST_COMMAND.test(command)) return 'test_execution';
  if (command !== undefined && FILE_READING_SHELLS.has(name) && shellFileRead(command) !== null) return 'file_read';
  return category;
}
