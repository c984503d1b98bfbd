import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failFromError } from '../../../src/sessions/result';

describe('failFromError', () => {
  it('maps errno codes to adapter error codes', () => {
    const code = (errno: string) => {
      const result = failFromError(Object.assign(new Error(errno), { code: errno }), '/x');
      return result.ok ? 'ok' : result.error.code;
    };
    assert.deepEqual(['ENOENT', 'EACCES', 'EPERM', 'EISDIR'].map(code), ['not-found', 'permission-denied', 'permission-denied', 'io']);
  });
});
