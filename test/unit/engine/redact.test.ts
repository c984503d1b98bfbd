import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactIdentifier, redactSecrets, redactSecretsWithCounts } from '../../../src/engine/redact';

describe('redactSecrets', () => {
  it('masks common key formats and keeps labels', () => {
    const text = [
      'key sk-ant-api03-abcdefghijklmnop',
      'openai sk-proj-abcdefghijklmnopqrstuv',
      'aws AKIAABCDEFGHIJKLMNOP',
      'gh ghp_abcdefghijklmnopqrstuvwxyz0123',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc',
      'password=hunter22',
      'api_key: "s3cr3tvalue"',
    ].join('\n');
    const { text: redacted, counts } = redactSecretsWithCounts(text);
    for (const secret of ['abcdefghijklmnop', 'AKIAABCDEFGHIJKLMNOP', 'ghp_', 'eyJhbGci', 'hunter22', 's3cr3tvalue']) assert.ok(!redacted.includes(secret), secret);
    assert.match(redacted, /Bearer \[REDACTED\]/);
    assert.match(redacted, /password=\[REDACTED\]/);
    assert.equal(counts['anthropic-key'], 1);
  });

  it('leaves ordinary text alone', () => {
    const text = 'The task-runner uses skip-list sk-8 and a password field.';
    assert.equal(redactSecrets(text), text);
  });
});

describe('redactIdentifier', () => {
  it('hides path segments but keeps the extension', () => {
    assert.equal(redactIdentifier('/home/user/project/config.py'), '/home/***/***/***.py');
    assert.equal(redactIdentifier('npm test'), 'npm test');
  });
});
