// The import boundaries eslint.config.mjs draws around the adapters: an adapter folder never imports
// another (shared helpers live in sessions/common), and the host, the CLI, the MCP server and the
// proxy reach an agent only through the registry and neutral modules. Linted in memory, as if the
// snippet were the file named.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { root, untypedLinter } from './linter';

const eslint = untypedLinter();

/** The no-restricted-imports messages for `code` placed at `file` (relative to the repository). */
async function restricted(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('adapter import boundaries', () => {
  it('an adapter importing another adapter is an error, in every form', async () => {
    for (const code of [
      "import x from '../claude-code/records';\nexport { x };\n",
      "export { num } from '../claude-code/records';\n",
      "import type { RawRecord } from '../claude-code/records';\nexport type { RawRecord };\n",
      "import { claudeCodeAdapter } from '../claude-code';\nexport { claudeCodeAdapter };\n",
      "import '../../sessions/claude-code/paths';\n",
    ]) {
      const messages = await restricted(code, 'src/sessions/codex/x.ts');
      assert.equal(messages.length, 1, code);
      assert.match(messages[0] ?? '', /never imports another adapter/);
    }
    assert.equal((await restricted("export { canonicalCwd } from '../codex/paths';\n", 'src/sessions/claude-code/x.ts')).length, 1);
  });

  it('an adapter may import the shared helpers, the port and its own files', async () => {
    const code =
      "export { num } from '../common/fields';\nexport type { AgentAdapter } from '../port';\nexport { ok } from '../result';\nexport { writeAtomically } from '../atomicWrite';\nexport { RolloutParser } from './reader';\n";
    assert.deepEqual(await restricted(code, 'src/sessions/codex/x.ts'), []);
  });

  it('the host, the CLI, the MCP server and the proxy reach an agent only through the registry', async () => {
    for (const file of ['src/host/x.ts', 'src/host/connect/x.ts', 'src/cli/x.ts', 'src/mcp/x.ts', 'src/proxy/x.ts']) {
      const up = '../'.repeat(file.split('/').length - 2);
      assert.equal((await restricted(`export { codexAdapter } from '${up}sessions/codex/adapter';\n`, file)).length, 1, file);
      assert.equal((await restricted(`export { claudeCodeAdapter } from '${up}sessions/claude-code';\n`, file)).length, 1, file);
      assert.deepEqual(
        await restricted(`export { AGENTS } from '${up}sessions/agents';\nexport { connectableAgent } from '${up}sessions/connectable';\n`, file),
        [],
        file,
      );
    }
  });
});
