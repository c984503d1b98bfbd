// The engine and pricing are entered through their index.ts only (eslint.config.mjs, DOORS): a deep
// import from anywhere else in src/ is an error, the door itself is not. The engine stays pure: it
// imports neither pricing nor the environment-reading part of src/base. Linted in memory, as if the
// snippet were the file named.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { root, untypedLinter } from './linter';

const eslint = untypedLinter();

async function restricted(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

/** Every kind of folder in src/ that has its own rule set, so no set forgets the doors. */
const OUTSIDE = [
  'src/x.ts',
  'src/cli/x.ts',
  'src/host/x.ts',
  'src/host/context/x.ts',
  'src/proxy/x.ts',
  'src/mcp/x.ts',
  'src/sessions/x.ts',
  'src/sessions/codex/x.ts',
  'src/sessions/common/x.ts',
  'src/protocol/x.ts',
  'src/archive/x.ts',
  'src/summarizers/x.ts',
  'src/contracts/x.ts',
  'src/base/x.ts',
];
const up = (file: string): string => (file.split('/').length === 2 ? './' : '../'.repeat(file.split('/').length - 2));

describe('the engine and pricing doors', () => {
  it('a deep import into the engine is an error everywhere outside it, in every form', async () => {
    for (const file of [...OUTSIDE, 'src/pricing/x.ts']) {
      for (const code of [
        `import { plan } from '${up(file)}engine/plan';\nexport { plan };\n`,
        `import type { Context } from '${up(file)}engine/model';\nexport type { Context };\n`,
        `export { pinnedBlock } from '${up(file)}engine/policy/pinned';\n`,
      ]) {
        const messages = await restricted(code, file);
        assert.equal(messages.length, 1, `${file}: ${code}`);
        assert.match(messages[0] ?? '', /through its door, src\/engine\/index\.ts/);
      }
    }
  });

  it('a deep import into pricing is an error everywhere outside it', async () => {
    for (const file of OUTSIDE) {
      const messages = await restricted(`import { BUNDLED_PRICES } from '${up(file)}pricing/bundledPrices';\nexport { BUNDLED_PRICES };\n`, file);
      assert.equal(messages.length, 1, file);
      assert.match(messages[0] ?? '', /through its door, src\/pricing\/index\.ts/);
    }
  });

  it('the doors themselves are open', async () => {
    for (const file of OUTSIDE) {
      assert.deepEqual(
        await restricted(`export { compact } from '${up(file)}engine';\nexport { BUNDLED_PRICES } from '${up(file)}pricing';\n`, file),
        [],
        file,
      );
    }
    assert.deepEqual(await restricted("export { compact } from '../engine';\nexport { prices } from './prices';\n", 'src/pricing/x.ts'), []);
  });

  it('inside the engine a module imports its neighbours, src/base, and not pricing or base/node', async () => {
    assert.deepEqual(await restricted("export { plan } from '../plan';\nexport { thousands } from '../../base/format';\n", 'src/engine/ladder/x.ts'), []);
    assert.match((await restricted("export { BUNDLED_PRICES } from '../pricing';\n", 'src/engine/x.ts'))[0] ?? '', /never prices/);
    assert.match((await restricted("export { cacheRoot } from '../base/node/cacheDir';\n", 'src/engine/x.ts'))[0] ?? '', /environment and the disk/);
  });

  it('tests may reach inside (they test one module)', async () => {
    assert.deepEqual(await restricted("export { plan } from '../../../src/engine/plan';\n", 'test/unit/engine/x.test.ts'), []);
  });
});
