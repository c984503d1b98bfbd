import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFsError, failFromError } from '../../../src/sessions/result';

describe('failFromError', () => {
  it('maps errno codes to adapter error codes', () => {
    const code = (errno: string) => {
      const result = failFromError(Object.assign(new Error(errno), { code: errno }), '/x');
      return result.ok ? 'ok' : result.error.code;
    };
    assert.deepEqual(['ENOENT', 'EACCES', 'EPERM', 'EISDIR'].map(code), ['not-found', 'permission-denied', 'permission-denied', 'io']);
  });
});

describe('describeFsError', () => {
  const error = (code: string) => Object.assign(new Error(`${code}: raw`), { code });

  it('names the cause and the operation: a full disk is never "Cannot read", a read-only disk never "No such file"', () => {
    assert.equal(describeFsError(error('ENOSPC'), '/s/a.json', 'write'), 'No space left on the disk while writing /s/a.json');
    assert.equal(describeFsError(error('EROFS'), '/s/a.json', 'write'), '/s is on a read-only file system (while writing /s/a.json)');
    assert.equal(
      describeFsError(error('EROFS'), '/s/backups', 'create-folder'),
      '/s/backups is on a read-only file system (while creating the folder /s/backups)',
    );
    assert.equal(describeFsError(error('EACCES'), '/s/a.json', 'write'), 'Permission denied writing /s/a.json');
    assert.equal(describeFsError(error('EACCES'), '/s/backups', 'create-folder'), 'Permission denied creating the folder /s/backups');
    assert.equal(
      describeFsError(error('ENOENT'), '/s/backups', 'create-folder'),
      'Cannot create the folder /s/backups: the disk there is read-only, or a folder above it cannot be made',
    );
    assert.equal(describeFsError(error('ENOENT'), '/s/a.json', 'write'), 'No such folder: /s (while writing /s/a.json)');
    assert.equal(describeFsError(error('ENOENT'), '/s/a.json', 'read'), 'No such file: /s/a.json');
  });

  it('failFromError words writes the same way and keeps the stable codes', () => {
    const failed = failFromError(error('ENOSPC'), '/s/a.json', 'write');
    assert.deepEqual(failed, { ok: false, error: { code: 'io', message: 'No space left on the disk while writing /s/a.json', path: '/s/a.json' } });
    const denied = failFromError(error('EACCES'), '/s/a.json', 'write');
    assert.equal(denied.ok ? 'ok' : denied.error.code, 'permission-denied');
  });
});
