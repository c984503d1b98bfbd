// `dist/cli.js`, the `context-lens` command: turns on the code cache (codeCache.ts), then runs the
// CLI proper from `dist/cli-main.js`, which is compiled from it. Kept this small so that what is
// compiled before the cache can help is next to nothing.
import { enableCodeCache } from './codeCache';
import type { start as Start } from './main';

enableCodeCache(__dirname, process.env);
// A require at run time (esbuild leaves it be): the file beside this one, not a bundled copy.
// eslint-disable-next-line @typescript-eslint/no-require-imports
(require('./cli-main.js') as { start: typeof Start }).start();
