// Shell commands that only print a file are file reads (with their range); anything compound is not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { patchTarget, shellFileRead } from '../../../src/engine/shellCommands';
import { categorizeTool } from '../../../src/engine/toolCategory';
import { CLAUDE_CODE_TOOLS } from '../../../src/sessions/claude-code/tools';
import { CODEX_TOOLS } from '../../../src/sessions/codex/tools';

describe('shellFileRead', () => {
  it('reads cat, sed -n, head and tail of one file', () => {
    assert.deepEqual(shellFileRead('cat src/a.ts'), { path: 'src/a.ts' });
    assert.deepEqual(shellFileRead("sed -n '5,24p' 'my file.ts'"), { path: 'my file.ts', offset: 5, limit: 20 });
    assert.deepEqual(shellFileRead('sed -n 7p a.ts'), { path: 'a.ts', offset: 7, limit: 1 });
    assert.deepEqual(shellFileRead('head -n 3 a.csv'), { path: 'a.csv', offset: 1, limit: 3 });
    assert.deepEqual(shellFileRead('head a.csv'), { path: 'a.csv', offset: 1, limit: 10 });
    assert.deepEqual(shellFileRead('tail -5 a.log'), { path: 'a.log', offset: 'end', limit: 5 });
  });

  it('leaves compound and other commands alone', () => {
    for (const command of ['cat a b', 'cat a | wc -l', 'cat a > b', 'sed -i s/a/b/ f', 'head -c 5 f', 'cat $FILE', 'ls src', 'cat *.ts', 'cat -']) {
      assert.equal(shellFileRead(command), null, command);
    }
  });

  it('names the file a patch changes, and categorises Codex tools', () => {
    assert.equal(patchTarget('*** Begin Patch\n*** Update File: src/sum.js\n@@\n-a\n+b\n*** End Patch'), 'src/sum.js');
    assert.equal(patchTarget('not a patch'), null);
    assert.equal(categorizeTool('exec_command', { cmd: 'cat src/a.ts' }, CODEX_TOOLS), 'file_read');
    assert.equal(categorizeTool('exec_command', { cmd: 'npm test' }, CODEX_TOOLS), 'test_execution');
    assert.equal(categorizeTool('exec_command', { cmd: 'git status' }, CODEX_TOOLS), 'command_execution');
    assert.equal(categorizeTool('apply_patch', { input: '*** Begin Patch' }, CODEX_TOOLS), 'file_write');
    assert.equal(categorizeTool('Bash', { command: 'cat README.md' }, CLAUDE_CODE_TOOLS), 'command_execution', 'Claude Code reads files with Read');
  });
});
