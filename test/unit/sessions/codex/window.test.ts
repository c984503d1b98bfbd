// Codex's configured compaction point, read from a config.toml the person (or a hostile home) controls.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readConfiguredAutoCompactLimit } from '../../../../src/sessions/codex/window';
import { tempDir } from '../../../support/tempDir';

describe('readConfiguredAutoCompactLimit', () => {
  it('reads the top-level key, a byte order mark before it or not', async () => {
    const home = tempDir('cl-codex-home-');
    writeFileSync(join(home, 'config.toml'), '\uFEFFmodel_auto_compact_token_limit = 150_000\n[profiles.x]\n');
    assert.equal(await readConfiguredAutoCompactLimit(home), 150_000);
  });

  it('a config.toml that is a named pipe or /dev/zero is null at once, never waited on or read without end', async () => {
    for (const make of [(path: string) => execFileSync('mkfifo', [path]), (path: string) => symlinkSync('/dev/zero', path)]) {
      const home = tempDir('cl-codex-home-');
      make(join(home, 'config.toml'));
      const began = performance.now();
      assert.equal(await readConfiguredAutoCompactLimit(home), null);
      assert.ok(performance.now() - began < 2_000);
    }
  });
});
