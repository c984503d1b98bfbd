// One file-naming convention (eslint.config.mjs, FILE_NAME): camelCase modules, PascalCase for a
// class, dotted suffixes for the kind of file. A kebab-case or snake_case name is an error.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { root, untypedLinter } from './linter';

const eslint = untypedLinter();

async function nameErrors(file: string): Promise<string[]> {
  const [result] = await eslint.lintText('export const x = 1;\n', { filePath: join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'local/file-name').map((message) => message.message);
}

describe('file names', () => {
  it('camelCase, PascalCase and dotted suffixes pass, in folders of any case', async () => {
    for (const file of [
      'src/host/liveContext.ts',
      'src/host/context/ContextModel.ts',
      'test/unit/proxy/rewrite.property.test.ts',
      'bench/firstPaint.bench.ts',
      'src/sessions/claude-code/records.ts',
      'test/support/fake-anthropic/types.ts',
    ]) {
      assert.deepEqual(await nameErrors(file), [], file);
    }
  });

  it('kebab-case and snake_case names are rejected, with the name to use', async () => {
    const [message] = await nameErrors('src/cli/statusline-main.ts');
    assert.match(message ?? '', /statusline-main\.ts: .* statuslineMain\.ts/);
    assert.equal((await nameErrors('test/integration/fork_resume.test.ts')).length, 1);
    assert.equal((await nameErrors('test/integration/fork-resume.test.ts')).length, 1);
  });
});
