import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { categorizeTool } from '../../../src/engine/toolCategory';
import { CLAUDE_CODE_TOOLS } from '../../../src/sessions/claude-code/tools';

describe('categorizeTool', () => {
  it("maps an agent's tools by its vocabulary (Claude Code's here)", () => {
    const names = ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch', 'Task', 'TodoWrite'];
    assert.deepEqual(
      names.map((name) => categorizeTool(name, undefined, CLAUDE_CODE_TOOLS)),
      [
        'file_read',
        'file_write',
        'file_write',
        'file_write',
        'file_write',
        'command_execution',
        'search',
        'search',
        'list_directory',
        'view_file',
        'search',
        'other',
        'other',
      ],
    );
  });

  it('recognises test runs inside shell commands', () => {
    assert.equal(categorizeTool('Bash', { command: 'cd pkg && npm test -- --watch=false' }, CLAUDE_CODE_TOOLS), 'test_execution');
    assert.equal(categorizeTool('Bash', { command: 'ls -la' }, CLAUDE_CODE_TOOLS), 'command_execution');
  });

  it('falls back to name patterns for tools no vocabulary names', () => {
    assert.deepEqual(
      ['read_file', 'view_file_outline', 'apply_diff', 'run_command', 'grep_search', 'list_dir', 'run_pytest', 'mystery'].map((name) => categorizeTool(name)),
      ['file_read', 'view_file', 'file_write', 'command_execution', 'search', 'list_directory', 'test_execution', 'other'],
    );
  });
});
