import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_VSCODE = { name: 'vscode', message: 'The engine, session adapters and protocol must not depend on VS Code.' };
const noVscode = { 'no-restricted-imports': ['error', { paths: [NO_VSCODE] }] };

/**
 * The adapter folders, src/sessions/<agent>/ (every folder there but the shared helpers), read from
 * disk so that an agent added later is covered without touching this file.
 */
const AGENT_FOLDERS = readdirSync(new URL('./src/sessions/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'common' && entry.name !== 'handle')
  .map((entry) => entry.name);

/** An import of one of `agents`' folders from anywhere below src/ (`../codex/x`, `../../sessions/codex`). */
const agentFolderPattern = (agents, message) => ({ regex: `^(\\.\\./)+(sessions/)?(${agents.join('|')})(/|$)`, message });

/** Adapters never import each other: what two of them share lives in src/sessions/common/. */
const adapterRules = AGENT_FOLDERS.map((agent) => ({
  files: [`src/sessions/${agent}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [NO_VSCODE],
        patterns: AGENT_FOLDERS.length < 2 ? [] : [agentFolderPattern(AGENT_FOLDERS.filter((other) => other !== agent), 'An adapter never imports another adapter: move what both need to src/sessions/common/.')],
      },
    ],
  },
}));

/** The host, the CLI, the proxy and the MCP server reach an agent through the registry (sessions/agents) and neutral modules. */
function throughTheRegistry({ vscode }) {
  return {
    'no-restricted-imports': [
      'error',
      {
        ...(vscode ? {} : { paths: [{ name: 'vscode', message: 'The CLI, proxy and MCP server run without VS Code.' }] }),
        patterns: AGENT_FOLDERS.length === 0 ? [] : [agentFolderPattern(AGENT_FOLDERS, 'Reach an agent through the adapter port (sessions/agents, sessions/connectable, sessions/connection), never its folder.')],
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
  {
    // esbuild escapes non-ASCII in strings but not in regular expressions, and one such character
    // makes V8 hold the whole bundle as a two-byte string: half a megabyte more to decode and scan
    // at the start of every command.
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Literal[regex.pattern=/[^\\x00-\\x7f]/]', message: 'Write non-ASCII characters in a regular expression as \\u escapes (see eslint.config.mjs).' }] },
  },
  { files: ['src/sessions/**/*.ts', 'src/protocol/**/*.ts', 'src/contracts/**/*.ts', 'src/archive/**/*.ts', 'src/summarizers/**/*.ts'], rules: noVscode },
  ...adapterRules,
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
  { files: ['src/host/**/*.ts'], rules: throughTheRegistry({ vscode: true }) },
  { files: ['src/cli/**/*.ts', 'src/proxy/**/*.ts', 'src/mcp/**/*.ts'], rules: throughTheRegistry({ vscode: false }) },
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
