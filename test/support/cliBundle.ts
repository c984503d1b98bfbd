// The CLI and status line bundles as esbuild.mjs makes them in dist/, built into a folder of the
// test's own so a parallel `npm run build` (which wipes dist/) cannot race the test.
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const CLI = join(__dirname, '..', '..', 'src', 'cli');

export interface CliBundles {
  /** `<outdir>/cli.js`, the `context-lens` command. */
  readonly cli: string;
  /** `<outdir>/statusline.js`, the status line's own bundle. */
  readonly statusline: string;
}

const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  // As esbuild.mjs: ESM builds first (jsonc-parser's UMD `main` cannot be bundled).
  mainFields: ['module', 'main'],
  format: 'cjs',
  target: 'node20',
  // As esbuild.mjs: no import() in a bundle the code cache may run (src/cli/codeCache.ts).
  supported: { 'dynamic-import': false },
  logLevel: 'silent',
};

/**
 * The command as shipped: the loader (src/cli/bin.ts, which asks a resident reader or turns on the
 * code cache) as `<outdir>/cli.js` and the CLI proper beside it as `cli-main.js`.
 */
export async function buildCliLoader(outdir: string): Promise<string> {
  await build({
    ...NODE_BUNDLE,
    entryPoints: { cli: join(CLI, 'bin.ts'), 'cli-main': join(CLI, 'main.ts') },
    outdir,
    plugins: [
      { name: 'cli-main-beside', setup: (builder) => builder.onResolve({ filter: /^\.\/cli-main\.js$/ }, (args) => ({ path: args.path, external: true })) },
    ],
  });
  return join(outdir, 'cli.js');
}

export async function buildCliBundles(outdir: string): Promise<CliBundles> {
  await build({
    // The proxy's rewrite thread beside cli.js, as in dist/.
    entryPoints: { cli: join(CLI, 'main.ts'), statusline: join(CLI, 'statuslineMain.ts'), 'proxy-worker': join(CLI, '..', 'proxy', 'worker.ts') },
    outdir,
    ...NODE_BUNDLE,
    banner: { js: '#!/usr/bin/env node' },
  });
  return { cli: join(outdir, 'cli.js'), statusline: join(outdir, 'statusline.js') };
}
