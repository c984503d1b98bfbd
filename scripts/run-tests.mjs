// Runs every *.test.ts below the given folders (or the given files) with node's test runner (TypeScript through tsx).
// Node 20's --test takes no globs, so the files are listed here.
// The tests (and every process they start: the agents' CLIs, code-server, Chromium) get a private
// temporary folder as TMPDIR, removed at the end: the system's /tmp is left as it was found. What a
// test left there is listed first, so a leak is seen; with --no-tmp-leftovers it fails the run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const folders = args.filter((arg) => !arg.startsWith('--'));
const strictTmp = args.includes('--no-tmp-leftovers');
const passThrough = args.filter((arg) => arg.startsWith('--') && arg !== '--no-tmp-leftovers');

function collect(folder) {
  if (!statSync(folder).isDirectory()) return [folder];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'artifacts' || name === 'fixtures' ? [] : collect(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Leftovers grouped by name without mkdtemp's random tail: `cl-cli- ×80`. tsx's own compile cache is no leak. */
function leftovers(folder) {
  const counts = new Map();
  for (const name of readdirSync(folder)) {
    if (/^tsx-\d+$/.test(name)) continue;
    const stem = name.replace(/(?<=[-_.])[A-Za-z0-9]{6}$/, '');
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([stem, count]) => (count > 1 ? `${stem}… ×${count}` : stem));
}

const files = folders.flatMap(collect).sort();
if (files.length === 0) {
  console.error(`run-tests: no *.test.ts files under ${folders.join(', ')}`);
  process.exit(1);
}
console.error(`run-tests: ${files.length} file(s): ${files.map((file) => relative(process.cwd(), file)).join(' ')}`);
const tmp = mkdtempSync(join(tmpdir(), 'cl-tests-'));
// As /tmp itself: tests run commands as another user (a permission check as nobody), whose tsx cache goes here too.
chmodSync(tmp, 0o1777);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...passThrough, ...files], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: tmp },
});
const left = leftovers(tmp);
rmSync(tmp, { recursive: true, force: true });
if (left.length > 0) console.error(`run-tests: the tests left ${left.length} kind(s) of entries in their temporary folder (removed now): ${left.join(', ')}`);
if (result.status !== 0) process.exit(result.status ?? 1);
process.exit(strictTmp && left.length > 0 ? 1 : 0);
