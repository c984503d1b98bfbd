import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { holdsDynamicImport } from '../../../src/cli/codeCache';
import { tempDir } from '../../support/tempDir';

const SOURCE = join(__dirname, '..', '..', '..', 'src', 'cli', 'codeCache.ts');

describe('the code cache of the CLI bundles', () => {
  let bin: string;
  let cache: string;
  before(async () => {
    const root = tempDir('cl-code-cache-');
    bin = join(root, 'bin');
    cache = join(root, 'cache');
    mkdirSync(bin);
    // A loader as dist/cli.js is one, and a bundle beside it as cli-main.js is.
    await build({
      stdin: {
        contents: `import { enableCodeCache } from ${JSON.stringify(SOURCE)}; enableCodeCache(__dirname, process.env); require('./bundle.js');`,
        resolveDir: root,
        loader: 'ts',
      },
      outfile: join(bin, 'loader.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['./bundle.js'],
      logLevel: 'silent',
    });
  });

  const run = (): string => {
    const result = spawnSync(process.execPath, [join(bin, 'loader.js')], { encoding: 'utf8', env: { ...process.env, CONTEXT_LENS_CACHE: cache } });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '', 'no warning from Node');
    return result.stdout;
  };
  const files = (): string[] => readdirSync(join(cache, 'code'));

  it(
    'runs the bundle as Node would, keeps its compiled code privately, and survives a damaged or stale cache',
    { skip: process.version.startsWith('v20.') ? false : 'Node 22+ keeps its own compile cache' },
    () => {
      writeFileSync(
        join(bin, 'bundle.js'),
        "#!/usr/bin/env node\nconsole.log(require('node:path').basename(__filename), typeof module.exports, exports === module.exports);\n",
      );
      assert.equal(run(), 'bundle.js object true\n');
      const [first] = files();
      assert.ok(first !== undefined && first.startsWith(`bundle.js-${process.version}-`), String(first));
      assert.equal(statSync(join(cache, 'code', first)).mode & 0o777, 0o600);
      assert.equal(statSync(join(cache, 'code')).mode & 0o777, 0o700);
      assert.equal(run(), 'bundle.js object true\n');
      assert.deepEqual(files(), [first]);
      writeFileSync(join(cache, 'code', first), 'not V8 code');
      assert.equal(run(), 'bundle.js object true\n', 'a cache V8 rejects is compiled over');
      assert.notEqual(readFileSync(join(cache, 'code', first), 'utf8'), 'not V8 code');
      writeFileSync(join(bin, 'bundle.js'), "console.log('rebuilt');\n");
      assert.equal(run(), 'rebuilt\n');
      assert.equal(files().length, 1, 'the cache of the old bundle is gone');
      assert.notEqual(files()[0], first);
    },
  );

  it('runs a bundle that imports dynamically, cold and warm, without a warning (code from the cache cannot import on Node 20: that bundle is compiled as usual)', async () => {
    // Once in a function the command calls, once in a string, and a method named import: only the first is an import.
    writeFileSync(
      join(bin, 'bundle.js'),
      "const text = 'import(x)'; const o = { import(x) { return x; } };\n(async () => { const { sep } = await import('node:path'); console.log(sep, text.length, o.import(1)); })();\n",
    );
    for (let pass = 0; pass < 3; pass++) assert.equal(run(), '/ 9 1\n', `run ${pass + 1}`);
  });

  it('tells a dynamic import from text that looks like one', () => {
    assert.ok(holdsDynamicImport('await import("node:child_process")'));
    assert.ok(holdsDynamicImport('x=>import (y)'));
    assert.ok(holdsDynamicImport('{a:import(b)}'));
    assert.ok(!holdsDynamicImport("set `globalThis.File` to `import('node:buffer').File`"));
    assert.ok(!holdsDynamicImport('options.import(x); _import(y); $import(z)'));
    assert.ok(!holdsDynamicImport("import { a } from 'b'; require('c')"));
  });
});
