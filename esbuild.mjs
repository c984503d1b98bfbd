// Builds the bundles: extension host (node/cjs), the webview (browser/iife), the CLI (node/cjs) and
// the status line (node/cjs). What several node bundles use and only some runs need is a file of its
// own beside them, required at run time, so the package holds one copy and a command that never uses
// it never parses it: zod and the Anthropic SDK (dist/zod.js, dist/anthropic-sdk.js), the MCP SDK
// (dist/mcp-sdk.js), the English tagger that reads the person's sentences (dist/nlp.js).
// Usage: node esbuild.mjs [--watch] [--production] [--outdir DIR]
// (--outdir: the same build in another folder; the integration tests run what ships from one of their own.)
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const outdirAt = process.argv.indexOf('--outdir');
const dist = outdirAt > 0 && process.argv[outdirAt + 1] ? resolve(process.argv[outdirAt + 1]) : join(root, 'dist');
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const require = createRequire(import.meta.url);

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
};

/** Third-party packages required from a file beside the bundles: import specifier → file name in dist/. */
const SHARED = {
  zod: 'zod',
  '@anthropic-ai/sdk': 'anthropic-sdk',
  // Only `ctxlens mcp` needs the MCP SDK (and its ajv): out of cli.js, which every command parses.
  '@modelcontextprotocol/sdk/server/mcp.js': 'mcp-sdk',
  '@modelcontextprotocol/sdk/server/stdio.js': 'mcp-sdk',
  // The JSON-RPC message schema our transport checks lines with (a second copy of zod comes with it).
  '@modelcontextprotocol/sdk/types.js': 'mcp-sdk',
  // 300 KB that only the commands classifying the person's sentences (hook, compact, inspect) need.
  'compromise/two': 'nlp',
};
/** Imports of a shared package become requires of the file beside the bundle. */
const sharedBeside = {
  name: 'shared-beside',
  setup(build) {
    build.onResolve({ filter: /^(zod|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk\/(server\/(mcp|stdio)|types)\.js|compromise\/two)$/ }, (args) => ({
      path: `./${SHARED[args.path]}.js`,
      external: true,
    }));
  },
};

/** The loader's `require('./cli-main.js')` stays a require of the file beside it. */
const cliMainBeside = {
  name: 'cli-main-beside',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli-main\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Node bundles take ESM builds first: jsonc-parser's `main` is a UMD build whose dynamic requires a bundle cannot follow. */
// No `import()` in a node bundle: Node 20 runs our bundles from V8's code cache (src/cli/codeCache.ts),
// and code from that cache cannot import dynamically there. Every module the bundles load at run time
// is CommonJS (Node's own, the shared files beside them), so a require does the same.
const nodeBundle = {
  ...common,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  supported: { 'dynamic-import': false },
  mainFields: ['module', 'main'],
  outdir: dist,
};

/** @type {esbuild.BuildOptions[]} */
const targets = [
  { ...nodeBundle, entryPoints: { extension: join(root, 'src/extension.ts') }, external: ['vscode'], plugins: [sharedBeside] },
  // `context-lens` is a loader (cli.js) that turns on V8's code cache, then requires the CLI proper
  // (cli-main.js): what is compiled before the cache applies is a few lines (src/cli/codeCache.ts).
  { ...nodeBundle, entryPoints: { cli: join(root, 'src/cli/bin.ts') }, plugins: [cliMainBeside], banner: { js: '#!/usr/bin/env node' } },
  { ...nodeBundle, entryPoints: { 'cli-main': join(root, 'src/cli/main.ts') }, plugins: [sharedBeside] },
  // The live proxy's rewrite thread (src/proxy/worker.ts), started from extension.js or cli-main.js beside it.
  { ...nodeBundle, entryPoints: { 'proxy-worker': join(root, 'src/proxy/worker.ts') }, plugins: [sharedBeside] },
  // Claude Code runs the status line on every redraw: a bundle of its own, without engine or zod.
  { ...nodeBundle, entryPoints: { statusline: join(root, 'src/cli/statuslineMain.ts') }, plugins: [sharedBeside], banner: { js: '#!/usr/bin/env node' } },
  // The shared files themselves.
  { ...nodeBundle, stdin: { contents: "export * from 'zod';", resolveDir: root, loader: 'js' }, outdir: undefined, outfile: join(dist, 'zod.js') },
  {
    ...nodeBundle,
    stdin: {
      contents:
        "export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'; export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'; export { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';",
      resolveDir: root,
      loader: 'js',
    },
    outdir: undefined,
    outfile: join(dist, 'mcp-sdk.js'),
  },
  {
    ...nodeBundle,
    stdin: { contents: "export { default } from 'compromise/two';", resolveDir: root, loader: 'js' },
    outdir: undefined,
    outfile: join(dist, 'nlp.js'),
  },
  {
    ...nodeBundle,
    stdin: { contents: "export { default } from '@anthropic-ai/sdk'; export * from '@anthropic-ai/sdk';", resolveDir: root, loader: 'js' },
    outdir: undefined,
    outfile: join(dist, 'anthropic-sdk.js'),
  },
  {
    ...common,
    entryPoints: { main: join(root, 'webview/main.ts'), styles: join(root, 'webview/styles.css') },
    outdir: join(dist, 'webview'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/** Codicons are served from dist/webview so the webview's localResourceRoots stay narrow. */
function copyCodicons() {
  const source = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  const target = join(dist, 'webview/codicons');
  mkdirSync(target, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) cpSync(join(source, file), join(target, file));
}

// A clean dist/ each time, so a production build never ships a stale source map.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

if (watch) {
  copyCodicons();
  const contexts = await Promise.all(targets.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('[esbuild] watching for changes…');
} else {
  await Promise.all(targets.map((options) => esbuild.build(options)));
  copyCodicons();
}
