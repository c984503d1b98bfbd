// Packages the extension into dist-vsix/context-lens-<version>.vsix with vsce. Dependencies are
// bundled by esbuild, so vsce is told not to look at node_modules. Of media/screenshots/, only the
// images README.md shows are packed (.vscodeignore plus a line for each).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
mkdirSync('dist-vsix', { recursive: true });
const out = join('dist-vsix', `context-lens-${version}.vsix`);
const shown = [...new Set(readFileSync('README.md', 'utf8').match(/media\/screenshots\/[\w.-]+\.png/g) ?? [])];
const ignoreFile = join('dist-vsix', '.vscodeignore');
writeFileSync(ignoreFile, `${readFileSync('.vscodeignore', 'utf8')}${shown.map((path) => `!${path}\n`).join('')}`);
const vsce = join('node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
const result = spawnSync(
  vsce,
  ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--ignoreFile', ignoreFile, '-o', out],
  { stdio: 'inherit' },
);
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(out);
