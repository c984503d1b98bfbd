import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/main';
import { version } from '../../../package.json';

function run(argv: string[]): { code: number; out: string; err: string } {
  const out = new PassThrough();
  const err = new PassThrough();
  const code = main(argv, out, err);
  return { code, out: out.read()?.toString() ?? '', err: err.read()?.toString() ?? '' };
}

describe('context-lens CLI', () => {
  it('prints its version', () => {
    const result = run(['--version']);
    assert.equal(result.code, 0);
    assert.equal(result.out.trim(), version);
  });

  it('exits 2 with usage on an unknown command', () => {
    const result = run(['frobnicate']);
    assert.equal(result.code, 2);
    assert.match(result.err, /unknown command 'frobnicate'/);
    assert.match(result.err, /Usage: context-lens/);
  });
});
