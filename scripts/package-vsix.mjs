// Packages the extension into dist-vsix/context-lens-<version>.vsix with vsce. Dependencies are
// bundled by esbuild, so vsce is told not to look at node_modules.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
mkdirSync('dist-vsix', { recursive: true });
const out = join('dist-vsix', `context-lens-${version}.vsix`);
const vsce = join('node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
const result = spawnSync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', out], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(out);
