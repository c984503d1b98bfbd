// `[features] hooks = true` in .codex/config.toml: Connect adds exactly one marked line or table,
// Disconnect takes exactly that out, whatever the file looked like before (byte for byte).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { disableHooks, enableHooks, hooksEnabled } from '../../../../src/sessions/codex/featuresToml';

const roundTrip = (text: string | null): string => {
  const on = enableHooks(text, 'config.toml');
  assert.ok(on.ok);
  assert.ok(hooksEnabled(on.text), on.text);
  const off = disableHooks(on.text);
  assert.ok(off.ok);
  return off.text;
};

describe('Codex features.hooks edit', () => {
  it('gives back every shape of file byte for byte', () => {
    for (const text of [
      'model = "x"\n',
      'model = "x"',
      'model = "x"\n\n',
      '',
      '  \n',
      'a = 1\r\n[features]\r\nmemories = false\r\n',
      '# mine\n[features]\nmemories = false\n[other]\nb = 2\n',
      '[features] # tools\n',
    ]) {
      assert.equal(roundTrip(text), text, JSON.stringify(text));
    }
    assert.equal(roundTrip(null), '');
  });

  it('leaves hooks the person turned on alone, and refuses to override hooks they turned off', () => {
    const on = '[features]\nhooks = true\n';
    assert.deepEqual(enableHooks(on, 'config.toml'), { ok: true, text: on });
    assert.deepEqual(disableHooks(on), { ok: true, text: on });
    const off = enableHooks('[features]\nhooks = false\n', 'config.toml');
    assert.equal(off.ok, false);
    assert.equal(enableHooks('features = { memories = true }\n', 'config.toml').ok, false);
  });
});
