import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printable } from '../../../src/protocol/printable';

describe('printable', () => {
  it('shows escapes, C1 controls and bidi overrides instead of letting them act', () => {
    const hostile = '\u001b]0;pwned\u0007\u001b]8;;https://x/\u001b\\link\u001b[2J\u202Egnp.exe\u202C\u2066\u009b31m';
    const shown = printable(hostile);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    assert.doesNotMatch(shown, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    assert.equal(printable('\u001b[2J'), '\\u001b[2J');
    assert.equal(printable('\u202Eabc'), '\\u202eabc');
  });

  it('keeps ordinary text, newlines and tabs; one-line mode escapes those too', () => {
    assert.equal(printable('日本語 émoji 🎉\n\tnext'), '日本語 émoji 🎉\n\tnext');
    assert.equal(printable('a\nb\tc', true), 'a\\u000ab\\u0009c');
  });
});
