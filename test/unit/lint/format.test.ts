// The formatter's configuration (.prettierrc.json, .prettierignore): `npm run format:check` rejects a
// file that is not formatted and leaves data and generated files alone. Checked through prettier's
// own API with the repository's settings, on snippets placed as the files named.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as prettier from 'prettier';
import { root } from './linter';

async function formatted(text: string, file: string): Promise<boolean> {
  const filepath = join(root, file);
  const options = await prettier.resolveConfig(filepath, { editorconfig: false });
  assert.ok(options, 'the repository has a prettier configuration');
  return prettier.check(text, { ...options, filepath });
}

describe('the formatter', () => {
  it('rejects an unformatted file and accepts it once formatted', async () => {
    const messy = 'import {a,b} from "./x"\nexport const y = ( a+b )\n';
    assert.equal(await formatted(messy, 'src/base/x.ts'), false);
    const options = { ...(await prettier.resolveConfig(join(root, 'src/base/x.ts'))), filepath: join(root, 'src/base/x.ts') };
    const clean = await prettier.format(messy, options);
    assert.equal(clean, "import { a, b } from './x';\nexport const y = a + b;\n", 'single quotes, semicolons');
    assert.equal(await formatted(clean, 'src/base/x.ts'), true);
  });

  it('keeps lines up to 160 characters whole', async () => {
    const long = `export const line = [${Array.from({ length: 14 }, (_, index) => `'item${index}'`).join(', ')}];\n`;
    assert.ok(long.length > 100 && long.length <= 160, String(long.length));
    assert.equal(await formatted(long, 'src/base/x.ts'), true);
  });

  it('leaves recorded sessions, generated price tables and prose alone', async () => {
    for (const file of ['test/fixtures/claude-code/public/x/session.jsonl', 'src/pricing/priceTable.ts', 'README.md', 'package-lock.json']) {
      assert.equal((await prettier.getFileInfo(join(root, file), { ignorePath: join(root, '.prettierignore') })).ignored, true, file);
    }
    assert.equal((await prettier.getFileInfo(join(root, 'src/base/format.ts'), { ignorePath: join(root, '.prettierignore') })).ignored, false);
  });
});
