// The hook commands must keep working after an extension update and on machines without Node.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { commandPaths, executableOnPath, HOOK_BUNDLES, installBundles, nodeOnPath, refreshBundles } from '../../../../src/host/connect/launcher';
import { tempDir } from '../../../support/tempDir';

const temp = (prefix: string) => tempDir(prefix);

function dist(content: string): string {
  const folder = temp('cl-dist-');
  for (const name of HOOK_BUNDLES) writeFileSync(join(folder, name), `${name.replace(/\.js$/, '')} ${content}`);
  return folder;
}

describe('nodeOnPath', () => {
  it('takes the first executable node on PATH and skips what cannot run', () => {
    const [empty, notExecutable, good] = [temp('cl-path-'), temp('cl-path-'), temp('cl-path-')];
    writeFileSync(join(notExecutable, 'node'), '');
    chmodSync(join(notExecutable, 'node'), 0o644);
    writeFileSync(join(good, 'node'), '#!/bin/sh\n');
    chmodSync(join(good, 'node'), 0o755);
    const path = ['', empty, notExecutable, good].join(delimiter);
    // root may execute anything with an x bit only; a 0644 file is not executable even for root.
    assert.equal(nodeOnPath(path, 'linux'), join(good, 'node'));
    assert.equal(nodeOnPath(empty, 'linux'), null);
  });

  it('finds other commands the same way (Resume in Terminal looks for claude first), with Windows extensions', () => {
    const folder = temp('cl-path-');
    assert.equal(executableOnPath('claude', folder, 'linux'), null);
    writeFileSync(join(folder, 'claude'), '#!/bin/sh\n');
    chmodSync(join(folder, 'claude'), 0o755);
    assert.equal(executableOnPath('claude', folder, 'linux'), join(folder, 'claude'));
    writeFileSync(join(folder, 'claude.cmd'), '');
    chmodSync(join(folder, 'claude.cmd'), 0o755);
    assert.equal(executableOnPath('claude', folder, 'win32'), join(folder, 'claude.cmd'));
  });

  it('falls back to the running runtime, as Node under Electron when that is what runs', () => {
    const runtime = { pathEnv: temp('cl-path-'), platform: 'linux' as const, execPath: '/opt/code/code', isElectron: true };
    assert.deepEqual(commandPaths(runtime, '/bin-dir'), { node: '/opt/code/code', electronRunAsNode: true, binDir: '/bin-dir', platform: 'linux' });
    assert.equal(commandPaths({ ...runtime, isElectron: false }, '/bin-dir').electronRunAsNode, false);
  });
});

describe('installBundles', () => {
  it('copies the bundles once per version and refreshes an existing copy after an update', async () => {
    const bin = join(temp('cl-storage-'), 'bin');
    assert.equal(await refreshBundles(dist('1'), bin, '0.1.0'), false, 'refresh never creates the copy');
    assert.equal(await installBundles(dist('1'), bin, '0.1.0'), true);
    assert.equal(readFileSync(join(bin, 'cli.js'), 'utf8'), 'cli 1');
    assert.equal(await installBundles(dist('2'), bin, '0.1.0'), false, 'same version: nothing to copy');
    assert.equal(await refreshBundles(dist('2'), bin, '0.2.0'), true);
    assert.equal(readFileSync(join(bin, 'statusline.js'), 'utf8'), 'statusline 2');
  });

  it('fails when the extension is missing a bundle, leaving no half-copied file', async () => {
    const broken = temp('cl-dist-');
    mkdirSync(join(broken, 'nested'));
    const bin = join(temp('cl-storage-'), 'bin');
    await assert.rejects(installBundles(broken, bin, '0.1.0'), new RegExp(`^Error: No such file: ${join(broken, 'cli.js')}$`));
    assert.equal(await refreshBundles(dist('1'), bin, '0.1.0'), false, 'no version file was written');
  });
});
