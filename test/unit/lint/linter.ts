// The repository's ESLint configuration for snippets linted in memory as if they were a file that
// does not exist: without the type-checked part (no tsconfig holds such a file, and building the
// program would take most of a minute), which the rules these tests check do not need.
import { join } from 'node:path';
import { ESLint } from 'eslint';

export const root = join(__dirname, '..', '..', '..');

export function untypedLinter(): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfig: {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off' },
    },
  });
}
