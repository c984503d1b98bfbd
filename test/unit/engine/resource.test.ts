import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filePathOf, normalizePath, resourceKeyOf, resourceLabel } from '../../../src/engine/resource';

describe('resource identity', () => {
  it('normalises paths', () => {
    assert.equal(normalizePath('C:\\Users\\me\\proj\\a.ts'), 'c:/Users/me/proj/a.ts');
    assert.equal(normalizePath('/a//b/./c/../d/'), '/a/b/d');
  });

  it('distinguishes read ranges but not argument order of searches', () => {
    const whole = resourceKeyOf('Read', 'file_read', { file_path: '/a/b.ts' });
    const part = resourceKeyOf('Read', 'file_read', { file_path: '/a/b.ts', offset: 10, limit: 20 });
    assert.notEqual(whole, part);
    assert.equal(filePathOf(part), '/a/b.ts');
    assert.equal(resourceLabel(part ?? ''), '/a/b.ts (offset 10, limit 20)');
    assert.equal(resourceKeyOf('Grep', 'search', { pattern: 'x', path: '/p' }), resourceKeyOf('Grep', 'search', { path: '/p', pattern: 'x' }));
  });

  it('uses the command text for shell commands, whitespace-insensitive', () => {
    assert.equal(resourceKeyOf('Bash', 'command_execution', { command: 'npm  test' }), 'cmd:npm test');
    assert.equal(resourceLabel('cmd:npm test'), 'npm test');
  });

  it('keys writes by path only and keeps # in file names', () => {
    assert.equal(resourceKeyOf('Edit', 'file_write', { file_path: '/a/b.ts', offset: 3 }), 'file:/a/b.ts');
    assert.equal(filePathOf('file:/a/issue#12.md'), '/a/issue#12.md');
    assert.equal(filePathOf('cmd:ls'), undefined);
  });
});
