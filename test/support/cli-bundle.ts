// The CLI and status line bundles as esbuild.mjs makes them in dist/, built into a folder of the
// test's own so a parallel `npm run build` (which wipes dist/) cannot race the test.
import { join } from 'node:path';
import { build } from 'esbuild';

const CLI = join(__dirname, '..', '..', 'src', 'cli');

export interface CliBundles {
  /** `<outdir>/cli.js`, the `context-lens` command. */
  readonly cli: string;
  /** `<outdir>/statusline.js`, the status line's own bundle. */
  readonly statusline: string;
}

export async function buildCliBundles(outdir: string): Promise<CliBundles> {
  await build({
    // The proxy's rewrite thread beside cli.js, as in dist/.
    entryPoints: { cli: join(CLI, 'main.ts'), statusline: join(CLI, 'statusline-main.ts'), 'proxy-worker': join(CLI, '..', 'proxy', 'worker.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    // As esbuild.mjs: ESM builds first (jsonc-parser's UMD `main` cannot be bundled).
    mainFields: ['module', 'main'],
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'silent',
  });
  return { cli: join(outdir, 'cli.js'), statusline: join(outdir, 'statusline.js') };
}
