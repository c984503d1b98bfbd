import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  encodeProjectDirName,
  expectedProjectDirs,
  nodeRuntimePathHash,
  projectDirCandidates,
  resolveConfigDirs,
} from '../../../../src/sessions/claude-code/paths';
import { tempDir } from './builders';

describe('Claude Code paths', () => {
  it('encodes every non-alphanumeric character as a dash', () => {
    assert.equal(encodeProjectDirName('/home/user/my_project.v2'), '-home-user-my-project-v2');
    assert.equal(encodeProjectDirName('C:\\work\\app'), 'C--work-app');
  });

  it('cuts long names to 200 characters plus the base-36 hash', () => {
    const long = `/home/${'a'.repeat(250)}`;
    const encoded = encodeProjectDirName(long);
    assert.equal(encoded, `${encodeProjectDirName(long).slice(0, 200)}-${nodeRuntimePathHash(long)}`);
    assert.match(nodeRuntimePathHash(long), /^[0-9a-z]+$/);
    assert.equal(nodeRuntimePathHash('a'), (97).toString(36));
    assert.equal(nodeRuntimePathHash('ab'), (97 * 31 + 98).toString(36));
  });

  it('config folders: explicit list, else CLAUDE_CONFIG_DIR (comma-separated), else existing defaults', () => {
    const home = tempDir();
    assert.deepEqual(resolveConfigDirs({ configDirs: ['/a', ' ', '/a'], env: { CLAUDE_CONFIG_DIR: '/x' }, home }), ['/a']);
    assert.deepEqual(resolveConfigDirs({ env: { CLAUDE_CONFIG_DIR: '/x, /y' }, home }), ['/x', '/y']);
    assert.deepEqual(resolveConfigDirs({ env: {}, home }), []);
    mkdirSync(join(home, '.config', 'claude'), { recursive: true });
    assert.deepEqual(resolveConfigDirs({ env: {}, home }), [join(home, '.config', 'claude')]);
  });

  it('expected project folders: one per config folder, existing or not, else under ~/.claude', async () => {
    const home = tempDir();
    const cwd = join(home, 'no such workspace');
    const name = encodeProjectDirName(cwd);
    assert.deepEqual(await expectedProjectDirs(cwd, { env: { CLAUDE_CONFIG_DIR: '/x,/y' }, home }), [`/x/projects/${name}`, `/y/projects/${name}`]);
    assert.deepEqual(await expectedProjectDirs(cwd, { env: {}, home }), [join(home, '.claude', 'projects', name)]);
  });

  it('long paths also match folders by prefix when the hash differs (Bun-built CLI)', async () => {
    const config = tempDir();
    const cwd = `/home/${'b'.repeat(250)}`;
    const prefix = encodeProjectDirName(cwd).slice(0, 200);
    mkdirSync(join(config, 'projects', `${prefix}-bunhash`), { recursive: true });
    mkdirSync(join(config, 'projects', encodeProjectDirName(cwd)), { recursive: true });
    const candidates = await projectDirCandidates(config, cwd);
    assert.deepEqual(
      candidates.map((candidate) => candidate.match),
      ['exact', 'prefix'],
    );
  });
});
