// Runs every *.test.ts below the given folders (or the given files) with node's test runner (TypeScript through tsx).
// Node 20's --test takes no globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const folders = args.filter((arg) => !arg.startsWith('--'));
const passThrough = args.filter((arg) => arg.startsWith('--'));

function collect(folder) {
  if (!statSync(folder).isDirectory()) return [folder];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'artifacts' || name === 'fixtures' ? [] : collect(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = folders.flatMap(collect).sort();
if (files.length === 0) {
  console.error(`run-tests: no *.test.ts files under ${folders.join(', ')}`);
  process.exit(1);
}
console.error(`run-tests: ${files.length} file(s): ${files.map((file) => relative(process.cwd(), file)).join(' ')}`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...passThrough, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
