// Builds the bundles: extension host (node/cjs), its token-counting worker thread (node/cjs), the
// webview (browser/iife) and the CLI (node/cjs).
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
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

/** Node bundles take ESM builds first: jsonc-parser's `main` is a UMD build whose dynamic requires a bundle cannot follow. */
const nodeBundle = { platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'] };

/** @type {esbuild.BuildOptions[]} */
const targets = [
  {
    ...common,
    entryPoints: { extension: join(root, 'src/extension.ts') },
    outdir: join(root, 'dist'),
    ...nodeBundle,
    external: ['vscode'],
  },
  {
    // Loaded by TokenCountWorker from dist/tokenWorker.js so counting never blocks the extension host.
    ...common,
    entryPoints: { tokenWorker: join(root, 'src/engine/tokens/worker.ts') },
    outdir: join(root, 'dist'),
    ...nodeBundle,
  },
  {
    ...common,
    entryPoints: { cli: join(root, 'src/cli/main.ts') },
    outdir: join(root, 'dist'),
    ...nodeBundle,
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // Claude Code runs the status line on every redraw: a bundle of its own, without engine or zod.
    ...common,
    entryPoints: { statusline: join(root, 'src/cli/statusline-main.ts') },
    outdir: join(root, 'dist'),
    ...nodeBundle,
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: { main: join(root, 'webview/main.ts'), styles: join(root, 'webview/styles.css') },
    outdir: join(root, 'dist/webview'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/** Codicons are served from dist/webview so the webview's localResourceRoots stay narrow. */
function copyCodicons() {
  const source = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  const target = join(root, 'dist/webview/codicons');
  mkdirSync(target, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) cpSync(join(source, file), join(target, file));
}

// A clean dist/ each time, so a production build never ships a stale source map.
rmSync(join(root, 'dist'), { recursive: true, force: true });

if (watch) {
  copyCodicons();
  const contexts = await Promise.all(targets.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('[esbuild] watching for changes…');
} else {
  await Promise.all(targets.map((options) => esbuild.build(options)));
  copyCodicons();
}
