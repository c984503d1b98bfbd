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

const ADAPTER_INTERNALS = {
  regex: '^(\\.\\./)+sessions/(claude-code|codex)/(?!statusline$)[^/]+',
  message: "Import the adapter's index (sessions/<agent>), not its internals.",
};
/** Reading sessions goes through the port (sessions/agents); only Claude Code's hooks, status line and first-session watch are its own. */
const CODEX_DIRECT = {
  regex: '^(\\.\\./)+sessions/codex$',
  message: 'Reach Codex through the adapter port (sessions/agents), like every agent.',
};

/** The adapter rule, with the no-vscode rule for code that runs outside the extension host too. */
function adapterFaceOnly({ vscode }) {
  return {
    'no-restricted-imports': [
      'error',
      {
        ...(vscode ? {} : { paths: [{ name: 'vscode', message: 'The CLI, proxy and MCP server run without VS Code.' }] }),
        patterns: [ADAPTER_INTERNALS, CODEX_DIRECT],
      },
    ],
  };
}

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
  { files: ['src/sessions/**/*.ts', 'src/protocol/**/*.ts', 'src/contracts/**/*.ts', 'src/archive/**/*.ts', 'src/summarizers/**/*.ts'], rules: noVscode },
  {
    // The engine is pure: it knows no agent's format, no VS Code, no command line and no panel.
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'The engine must not depend on VS Code.' },
            // No I/O of its own: archives on disk and summarizers that call a network or a process
            // live in src/archive and src/summarizers and are handed to the engine.
            ...['node:fs', 'node:fs/promises', 'node:child_process', 'node:net', 'node:http', 'node:https', '@anthropic-ai/sdk'].map((name) => ({ name, message: 'The engine does no I/O: take it as a dependency (src/archive, src/summarizers).' })),
          ],
          patterns: [{ group: ['**/sessions/**', '**/host/**', '**/cli/**', '**/protocol/**', '**/proxy/**', '**/contracts/**', '**/archive/**', '**/summarizers/anthropic', '**/summarizers/claudeCli'], message: 'The engine imports nothing outside src/engine: adapters hand it their context.' }],
        },
      ],
    },
  },
  // The host, the CLI, the proxy and the MCP server reach an agent through its adapter's face
  // (src/sessions/<agent>/index.ts, plus the status line's light entry), never its internals.
  { files: ['src/host/**/*.ts'], rules: adapterFaceOnly({ vscode: true }) },
  { files: ['src/cli/**/*.ts', 'src/proxy/**/*.ts', 'src/mcp/**/*.ts'], rules: adapterFaceOnly({ vscode: false }) },
  {
    // The panel renders what the host sends: it imports only the protocol (and its own files).
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview runs in a browser frame.' }],
          patterns: [{ regex: '^(\\.\\./)+src/(?!protocol/)', message: 'The webview imports only src/protocol.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' },
    },
  },
);
