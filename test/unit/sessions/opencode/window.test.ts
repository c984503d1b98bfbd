// OpenCode's own compaction point, as 1.18.33 computes it from the model's limits and its config.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { OPENCODE_FLAVOUR } from '../../../../src/sessions/opencode/flavour';
import { opencodeAutoCompactTokens, readOpencodeWindow } from '../../../../src/sessions/common/opencodeFamily/window';
import { tempDir } from '../../../support/tempDir';

describe('opencodeAutoCompactTokens', () => {
  it('is the context less the output cap, or the input limit less the reserve', () => {
    assert.equal(opencodeAutoCompactTokens({ context: 10_000, output: 1_000, input: 0 }, null), 9_000);
    // The output cap is at most 32 000, and 32 000 when the model names none.
    assert.equal(opencodeAutoCompactTokens({ context: 200_000, output: 64_000, input: 0 }, null), 168_000);
    assert.equal(opencodeAutoCompactTokens({ context: 200_000, output: 0, input: 0 }, null), 168_000);
    // With an input limit: the reserve is compaction.reserved, else min(20 000, the output cap).
    assert.equal(opencodeAutoCompactTokens({ context: 400_000, output: 128_000, input: 272_000 }, null), 252_000);
    assert.equal(opencodeAutoCompactTokens({ context: 400_000, output: 8_000, input: 272_000 }, null), 264_000);
    assert.equal(opencodeAutoCompactTokens({ context: 400_000, output: 128_000, input: 272_000 }, { reserved: 50_000 }), 222_000);
    // compaction.reserved only moves the point when the model has an input limit.
    assert.equal(opencodeAutoCompactTokens({ context: 10_000, output: 1_000, input: 0 }, { reserved: 5_000 }), 9_000);
  });

  it('is the whole window when OpenCode never compacts', () => {
    assert.equal(opencodeAutoCompactTokens({ context: 10_000, output: 1_000, input: 0 }, { auto: false }), 10_000);
  });
});

describe('readOpencodeWindow on hostile config files', () => {
  it('a project config that is a named pipe, /dev/zero or has a BOM is never waited on; the BOM one is read', async () => {
    const home = tempDir('cl-oc-home-');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
    for (const make of [(path: string) => execFileSync('mkfifo', [path]), (path: string) => symlinkSync('/dev/zero', path)]) {
      const project = tempDir('cl-oc-project-');
      make(join(project, 'opencode.json'));
      const began = performance.now();
      const window = await readOpencodeWindow(OPENCODE_FLAVOUR, 'anthropic/some-model', project, env);
      assert.equal(window.windowTokens, 200_000);
      assert.ok(performance.now() - began < 2_000);
    }
    const project = tempDir('cl-oc-project-');
    writeFileSync(join(project, 'opencode.json'), '\uFEFF{"provider": {"p": {"models": {"m": {"limit": {"context": 50000, "output": 1000}}}}}}');
    assert.equal((await readOpencodeWindow(OPENCODE_FLAVOUR, 'p/m', project, env)).windowTokens, 50_000);
  });
});
