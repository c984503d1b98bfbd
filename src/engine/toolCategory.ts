// Maps tool names to the categories of seed 002. The agent's own vocabulary (tools.ts) knows its
// tools exactly; other tools fall back to name patterns so they still land somewhere sensible.
// A shell command that only prints a file is a file read; one that runs tests, test output.
import type { ToolCategory } from './model';
import { shellFileRead } from './shellCommands';
import { NO_VOCABULARY, type ToolVocabulary } from './tools';

/** Where a shell tool's input holds the command line. */
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
const TEST_COMMAND =
  /(^|[\s;&|(])(npm (run )?test|yarn test|pnpm test|npx (jest|vitest|mocha)|pytest|python -m pytest|go test|cargo test|mvn test|gradle test|node --test|dotnet test|rspec|phpunit)\b/;

export function categorizeTool(name: string, input?: Record<string, unknown>, vocabulary: ToolVocabulary = NO_VOCABULARY): ToolCategory {
  const exact = Object.hasOwn(vocabulary.categories, name) ? vocabulary.categories[name] : undefined;
  const category = exact ?? PATTERNS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
  const command = category === 'command_execution' ? commandOf(input) : undefined;
  if (command !== undefined && TEST_COMMAND.test(command)) return 'test_execution';
  if (command !== undefined && vocabulary.fileReadingShells?.includes(name) === true && shellFileRead(command) !== null) return 'file_read';
  return category;
}
