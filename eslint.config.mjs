import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_VSCODE = { name: 'vscode', message: 'The engine, session adapters and protocol must not depend on VS Code.' };

/**
 * The engine and pricing each have one door, their index.ts: code outside the folder imports nothing
 * deeper, so what they offer is the list in that file and their insides can move freely. Tests may
 * reach a module directly (they test it); every rule set for src/ below carries these patterns, since
 * the last matching no-restricted-imports setting is the one that applies.
 */
const DOORS = [
  { regex: '^(\\.\\.?/)+(src/)?engine/', message: 'Import the engine through its door, src/engine/index.ts (`../engine`), never a file inside it.' },
  { regex: '^(\\.\\.?/)+(src/)?pricing/', message: 'Import pricing through its door, src/pricing/index.ts (`../pricing`), never a file inside it.' },
];
const noVscode = { 'no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: DOORS }] };

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
        patterns: [
          ...DOORS,
          ...(AGENT_FOLDERS.length < 2
            ? []
            : [
                agentFolderPattern(
                  AGENT_FOLDERS.filter((other) => other !== agent),
                  'An adapter never imports another adapter: move what both need to src/sessions/common/.',
                ),
              ]),
        ],
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
        patterns: [
          ...DOORS,
          ...(AGENT_FOLDERS.length === 0
            ? []
            : [
                agentFolderPattern(
                  AGENT_FOLDERS,
                  'Reach an agent through the adapter port (sessions/agents, sessions/connectable, sessions/connection), never its folder.',
                ),
              ]),
        ],
      },
    ],
  };
}

/**
 * One file-naming convention for TypeScript: a module is named after what it holds, in camelCase
 * (`liveContext.ts`), or in PascalCase when it holds one class (`ContextModel.ts`); dotted suffixes
 * say what kind of file it is (`.test`, `.property.test`, `.bench`, `.d`). Folders are kebab-case
 * (the agents' ids: `claude-code`); the .mjs build scripts keep the command names people type.
 */
const FILE_NAME = /^[A-Za-z][A-Za-z0-9]*(\.[a-z]+)*\.ts$/;
const local = {
  rules: {
    'file-name': {
      meta: {
        type: 'suggestion',
        schema: [],
        messages: { name: '{{name}}: name a module in camelCase (or PascalCase for a class), e.g. {{suggested}} (eslint.config.mjs, FILE_NAME).' },
      },
      create(context) {
        return {
          Program(node) {
            const name = basename(context.filename);
            if (FILE_NAME.test(name)) return;
            const suggested = name.replace(/[-_]+([A-Za-z0-9])/g, (_match, next) => next.toUpperCase());
            context.report({ node, messageId: 'name', data: { name, suggested } });
          },
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-test/**', 'dist-vsix/**', 'node_modules/**', '.vscode-test/**', 'test/e2e/artifacts/**', 'test/fixtures/**', 'samples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // Type-checked rules: each file is checked with the tsconfig that includes it (tsconfig.json,
    // webview/tsconfig.json), found by typescript-eslint's project service.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { local },
    rules: {
      'local/file-name': 'error',
      // A promise nobody awaits loses its rejection: await it, or write `void` with the reason and a catch.
      // node:test's describe/it return a promise the runner itself waits for.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
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
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[regex.pattern=/[^\\x00-\\x7f]/]',
          message: 'Write non-ASCII characters in a regular expression as \\u escapes (see eslint.config.mjs).',
        },
      ],
    },
  },
  { files: ['src/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: DOORS }] } },
  {
    files: ['src/sessions/**/*.ts', 'src/protocol/**/*.ts', 'src/contracts/**/*.ts', 'src/archive/**/*.ts', 'src/summarizers/**/*.ts', 'src/base/**/*.ts'],
    rules: noVscode,
  },
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
            ...['node:fs', 'node:fs/promises', 'node:child_process', 'node:net', 'node:http', 'node:https', '@anthropic-ai/sdk'].map((name) => ({
              name,
              message: 'The engine does no I/O: take it as a dependency (src/archive, src/summarizers).',
            })),
          ],
          patterns: [
            {
              group: [
                '**/sessions/**',
                '**/host/**',
                '**/cli/**',
                '**/protocol/**',
                '**/proxy/**',
                '**/contracts/**',
                '**/archive/**',
                '**/summarizers/anthropic',
                '**/summarizers/claudeCli',
                '**/pricing',
                '**/pricing/**',
              ],
              message: 'The engine imports nothing outside src/engine but src/base: adapters hand it their context, and it never prices.',
            },
            { group: ['**/base/node/**'], message: 'src/base/node reads the environment and the disk: the engine takes such values as arguments.' },
          ],
        },
      ],
    },
  },
  {
    // Pricing is pure too (no I/O, no agent, no VS Code): the CLI, the host and the proxy hand it prices and calls.
    files: ['src/pricing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            NO_VSCODE,
            ...['node:fs', 'node:fs/promises', 'node:child_process', 'node:net', 'node:http', 'node:https'].map((name) => ({
              name,
              message: 'Pricing does no I/O: the caller reads price files and sessions.',
            })),
          ],
          patterns: [
            DOORS[0],
            {
              group: [
                '**/sessions/**',
                '**/host/**',
                '**/cli/**',
                '**/protocol/**',
                '**/proxy/**',
                '**/contracts/**',
                '**/archive/**',
                '**/summarizers/**',
                '**/base/node/**',
              ],
              message: 'Pricing imports only the engine (through its door) and src/base.',
            },
          ],
        },
      ],
    },
  },
  { files: ['src/host/**/*.ts'], rules: throughTheRegistry({ vscode: true }) },
  { files: ['src/cli/**/*.ts', 'src/proxy/**/*.ts', 'src/mcp/**/*.ts'], rules: throughTheRegistry({ vscode: false }) },
  {
    // The panel renders what the host sends: it imports only the protocol and the pure base helpers (and its own files).
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview runs in a browser frame.' }],
          patterns: [{ regex: '^(\\.\\./)+src/(?!protocol/|base/[^/]+$)', message: 'The webview imports only src/protocol and src/base (not src/base/node).' }],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
);
