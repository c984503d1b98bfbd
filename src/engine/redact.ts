// Secret redaction shared by stubs (S7), the before/after diff and logs: anything the engine shows a
// person or writes next to the context goes through here first. Patterns err towards redacting a
// little too much; a masked non-secret costs far less than a leaked key.

interface SecretPattern {
  readonly name: string;
  readonly pattern: RegExp;
  /** Keeps a recognisable prefix (e.g. `password=`) so the text still reads sensibly. */
  readonly keepGroup?: number;
}

export const REDACTED = '[REDACTED]';

const SECRET_PATTERNS: readonly SecretPattern[] = [
  { name: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g },
  { name: 'openai-key', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{16,}/g },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { name: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: 'private-key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { name: 'bearer', pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, keepGroup: 1 },
  {
    name: 'assignment',
    pattern: /\b((?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?\s*[:=]\s*["']?)[^\s"',;]{3,}/gi,
    keepGroup: 1,
  },
];

export interface RedactionResult {
  text: string;
  /** How many secrets of each kind were masked (for logs and the result's report). */
  counts: Record<string, number>;
}

export function redactSecretsWithCounts(text: string): RedactionResult {
  const counts: Record<string, number> = {};
  let result = text;
  for (const { name, pattern, keepGroup } of SECRET_PATTERNS) {
    result = result.replace(pattern, (...match: string[]) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return keepGroup === undefined ? REDACTED : `${match[keepGroup] ?? ''}${REDACTED}`;
    });
  }
  return { text: result, counts };
}

export function redactSecrets(text: string): string {
  return redactSecretsWithCounts(text).text;
}

/**
 * Identifier redaction for stubs (seed 002's `redact_resource_identifiers`): secrets are masked and
 * every path segment but the first and the file extension is replaced, so `/home/u/proj/config.py`
 * reads `/home/***\/***.py` — enough to tell files apart by type, not enough to leak names.
 */
export function redactIdentifier(identifier: string): string {
  const withoutSecrets = redactSecrets(identifier);
  const segments = withoutSecrets.split('/');
  if (segments.length < 2) return withoutSecrets;
  return segments
    .map((segment, index) => {
      if (index === 0 || segment === '' || (index === 1 && segments[0] === '')) return segment;
      const dot = segment.lastIndexOf('.');
      return dot > 0 && index === segments.length - 1 ? `***${segment.slice(dot)}` : '***';
    })
    .join('/');
}
