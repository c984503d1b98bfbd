import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'The engine, session adapters and protocol must not depend on VS Code.' }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-test/**', 'dist-vsix/**', 'node_modules/**', '.vscode-test/**', 'test/e2e/artifacts/**', 'test/fixtures/**', 'samples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: ['src/engine/**/*.ts', 'src/sessions/**/*.ts', 'src/protocol/**/*.ts', 'src/cli/**/*.ts', 'webview/**/*.ts'], rules: noVscode },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' },
    },
  },
);
