// `npm run package` must produce a .vsix holding only what VS Code loads.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { version } from '../../../package.json';

const ROOT = join(__dirname, '..', '..', '..');
const ALLOWED = [
  /^extension\/package\.json$/,
  /^extension\/dist\//,
  /^extension\/media\//,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
];

describe('npm run package', { timeout: 120_000 }, () => {
  it('produces a .vsix with only dist/, media/, README, CHANGELOG and LICENSE', () => {
    try {
      execFileSync('npm', ['run', 'package'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      assert.fail(`npm run package failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
    }
    const vsix = join(ROOT, 'dist-vsix', `context-lens-${version}.vsix`);
    assert.ok(existsSync(vsix), `${vsix} was not written`);
    const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
    for (const entry of listing)
      assert.ok(
        ALLOWED.some((pattern) => pattern.test(entry)),
        `unexpected file in the .vsix: ${entry}`,
      );
    // Connect copies cli.js (and the CLI proper it loads, cli-main.js), statusline.js and the shared files for the hooks.
    const shared = ['cli-main.js', 'proxy-worker.js', 'zod.js', 'anthropic-sdk.js', 'mcp-sdk.js', 'nlp.js'].map((name) => `extension/dist/${name}`);
    for (const required of [
      'extension/dist/extension.js',
      'extension/dist/cli.js',
      'extension/dist/statusline.js',
      ...shared,
      'extension/dist/webview/main.js',
      'extension/readme.md',
      'extension/changelog.md',
      'extension/LICENSE.txt',
    ]) {
      assert.ok(listing.includes(required), `${required} missing from the .vsix`);
    }
    assert.ok(!listing.some((entry) => entry.endsWith('.map')), 'source maps must not ship');
    // The Extensions view renders the README: every image it shows ships, no other screenshot does.
    const shown = new Set(readFileSync(join(ROOT, 'README.md'), 'utf8').match(/media\/screenshots\/[\w.-]+\.png/g) ?? []);
    assert.deepEqual(new Set(listing.filter((entry) => entry.includes('/screenshots/')).map((entry) => entry.replace(/^extension\//, ''))), shown);
    // No tokenizer tables ship: items are sized from the agent's usage with a one-pass estimate.
    assert.ok(!listing.some((entry) => /o200k|tokenWorker/.test(entry)), 'no tokenizer tables or worker in the .vsix');
    assert.ok(statSync(vsix).size <= 2 * 1024 * 1024, `the .vsix is ${(statSync(vsix).size / 1024 / 1024).toFixed(2)} MB, over 2 MB`);
  });
});
