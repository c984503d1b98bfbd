import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { REDACTED, redactIdentifier, redactSecrets, redactSecretsWithCounts } from '../../../src/engine/redact';

/** Each line holds one secret (the second element) that must not survive; the first is what must stay. */
const SECRETS: readonly (readonly [string, string, string])[] = [
  ['anthropic-key', 'Error: 401 invalid key sk-ant-api03-Zx9kQ2mN7pR4tV6wY8bC1dF3', 'sk-ant-api03-Zx9kQ2mN7pR4tV6wY8bC1dF3'],
  ['openai-key', 'OPENAI_KEY is sk-proj-abcdefghijklmnopqrstuv', 'sk-proj-abcdefghijklmnopqrstuv'],
  ['openai-key', 'using sk-Abc123def456ghi789jkl012', 'sk-Abc123def456ghi789jkl012'],
  ['aws-access-key', 'aws AKIAIOSFODNN7EXAMPLE failed', 'AKIAIOSFODNN7EXAMPLE'],
  ['aws-access-key', 'session ASIAY34FZKBOKMUTVV7A', 'ASIAY34FZKBOKMUTVV7A'],
  ['assignment', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['github-token', 'remote: ghp_16C7e42F292c6912E7710c838347Ae178B4a rejected', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github-token', 'gho_16C7e42F292c6912E7710c838347Ae178B4a', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github-token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
  ['slack-token', 'slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp'],
  ['google-api-key', 'maps AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe', 'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe'],
  ['jwt', 'token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0'],
  ['bearer', 'curl -H "X: Bearer abc123def456ghi"', 'abc123def456ghi'],
  ['authorization', 'Authorization: Basic dXNlcjpwYXNzd29yZA', 'dXNlcjpwYXNzd29yZA'],
  ['assignment', 'password=hunter22', 'hunter22'],
  ['assignment', 'DB_PASSWORD=hunter22 npm start', 'hunter22'],
  ['assignment', 'db_password: "correct horse battery"', 'correct horse battery'],
  ['assignment', 'client_secret=Zm9vYmFy', 'Zm9vYmFy'],
  ['assignment', 'export GITHUB_TOKEN=abc123', 'abc123'],
  ['assignment', '{"api_key": "s3cr3tvalue", "tokens": 12}', 's3cr3tvalue'],
  ['assignment', '{\\"apiKey\\": \\"s3cr3tvalue\\"}', 's3cr3tvalue'],
  ['assignment', "api_key: 'yaml-value-1'", 'yaml-value-1'],
  ['assignment', 'x-api-key: abcdef0123', 'abcdef0123'],
  ['url-credentials', 'connect postgres://admin:p4ssw0rd@db.example.com:5432/app failed', 'p4ssw0rd'],
  ['url-credentials', 'git clone https://user:tok3n@github.com/o/r.git', 'tok3n'],
  ['private-key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAz9\nQWxhZGRpbjpvcGVu\n-----END RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAz9'],
  ['private-key', '"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkq\\n-----END PRIVATE KEY-----\\n"', 'MIIEvQIBADANBgkq'],
  // A head kept by truncation: the END line was cut away.
  ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n[… 300 tokens elided …]', 'b3BlbnNzaC1rZXktdjEAAAAA'],
  // A tail kept by truncation: the BEGIN line was cut away.
  ['private-key', '[… 300 tokens elided …]\nb3BlbnNzaC1rZXktdjEAAAAA\nQWxhZGRpbjpvcGVuc2VzYW1l\n-----END OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAA'],
];

describe('redactSecrets', () => {
  for (const [kind, text, secret] of SECRETS) {
    it(`masks ${kind}: ${text.slice(0, 40)}`, () => {
      const { text: redacted, counts, count } = redactSecretsWithCounts(text);
      assert.ok(!redacted.includes(secret), redacted);
      assert.ok(redacted.includes(REDACTED));
      assert.ok((counts[kind] ?? 0) >= 1, JSON.stringify(counts));
      assert.equal(
        count,
        Object.values(counts).reduce((sum, n) => sum + n, 0),
      );
      // Masking twice masks nothing more: counts stay honest when text is redacted at several steps.
      assert.equal(redactSecretsWithCounts(redacted).count, 0, redacted);
    });
  }

  it('keeps labels so the text still reads', () => {
    assert.equal(redactSecrets('password=hunter22'), 'password=[REDACTED]');
    assert.equal(redactSecrets('Authorization: Bearer abc123def456'), 'Authorization: Bearer [REDACTED]');
    assert.equal(redactSecrets('db_password: "a b c"'), 'db_password: "[REDACTED]"');
    assert.equal(redactSecrets('postgres://admin:p4ss@db:5432/x'), 'postgres://admin:[REDACTED]@db:5432/x');
  });

  it('keeps JSON valid', () => {
    const json = JSON.stringify({ text: 'password: "x y" and Authorization: Bearer a1b2c3d4e5 at https://u:p4ss@h/', n: 'db_password=\\q"' });
    const redacted = redactSecrets(json);
    assert.notEqual(redacted, json);
    assert.doesNotThrow(() => JSON.parse(redacted), redacted);
  });

  const ORDINARY = [
    'The task-runner uses skip-list sk-8 and a password field.',
    'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)',
    'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'id 123e4567-e89b-12d3-a456-426614174000 and 0x7fffabcd',
    'scikit uses sk-learn-estimators-module',
    '{"tokens": 1234, "maxTokens": 500, "inputTokens": 12, "token_count": 5}',
    'interface Auth { token: string; password?: string; apiKey: string | undefined }',
    'DB_PASSWORD=${DB_PASSWORD} api_key: <your-key> secret: %s',
    'Basic authentication and Bearer tokens are described in RFC 6750.',
    'see https://example.com:8080/path?q=1 and user@example.com',
    'The secret: we passed. The token budget is 200.',
    'Token::new(); let secret_len = 32;',
  ];
  for (const text of ORDINARY) {
    it(`leaves ordinary text alone: ${text.slice(0, 40)}`, () => assert.equal(redactSecrets(text), text));
  }

  it('never masks hex hashes or UUIDs (property)', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{7,64}$/);
    fc.assert(
      fc.property(
        fc.oneof(hex, fc.uuid()),
        fc.constantFrom('commit ', 'id=', 'sha ', ''),
        (value, label) => redactSecrets(`${label}${value}`) === `${label}${value}`,
      ),
    );
  });

  it('stays fast on hostile runs (no pattern backtracks over the text)', () => {
    for (const unit of ['a', 'a_token_', 'password=', 'sk-', 'Bearer ', 'http://a:', 'eyJaaaaa.', '-----END PRIVATE KEY-----\n', 'password: "']) {
      const text = unit.repeat(Math.ceil(256_000 / unit.length));
      const started = performance.now();
      redactSecrets(text);
      assert.ok(performance.now() - started < 2_000, `${unit}: ${performance.now() - started} ms`);
    }
  });
});

describe('redactIdentifier', () => {
  it('hides path segments but keeps the extension', () => {
    assert.equal(redactIdentifier('/home/user/project/config.py'), '/home/***/***/***.py');
    assert.equal(redactIdentifier('npm test'), 'npm test');
  });
});
