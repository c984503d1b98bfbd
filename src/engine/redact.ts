// Secret redaction: the one set of patterns for everything that leaves the transcript — stubs and
// other rewritten items, summaries and the prompt sent to an LLM summarizer, the diff, the archive,
// logs and hook output. Patterns err towards redacting a little too much (a masked non-secret costs
// far less than a leaked key), but never plain hex such as git SHAs or UUIDs.
//
// Every pattern starts at a fixed prefix or a bounded identifier, so the cost stays linear in the
// text whatever it holds (a hostile 1 MB run of one character included).

interface SecretPattern {
  readonly name: string;
  /** Named groups `keep` (before the secret) and `end` (after it) survive, so the text still reads. */
  readonly pattern: RegExp;
}

export const REDACTED = '[REDACTED]';

/** Names that say their value is a secret: `db_password`, `aws_secret_access_key`, `apiKey`, `X-Api-Key`. */
const SECRET_NAME = String.raw`(?:passwor[dt]|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key)`;
/** Values that are not secrets although their name says so: types, literals, placeholders, references. */
const NOT_A_VALUE = String.raw`(?!\[REDACTED\])(?![$%{<])(?!(?:string|number|boolean|bool|str|int|bytes|any|unknown|object|none|null|nil|undefined|true|false|optional|required)\b)(?![\d.]+(?![^\s"',;]))`;

const SECRET_PATTERNS: readonly SecretPattern[] = [
  // PEM blocks first: their body would otherwise be taken apart by the patterns below. A block cut
  // short (a truncated output) is masked to the end of its base64 lines. `\n` may be escaped (JSON).
  {
    name: 'private-key',
    pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----(?:(?:\r?\n|\\n)(?!-----END)[A-Za-z0-9+/=:, -]*)*(?:(?:\r?\n|\\n)-----END [A-Z ]{0,40}PRIVATE KEY-----)?/g,
  },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g },
  { name: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g },
  // Without `proj-` a digit is required: `sk-learn-estimators` is a word, an OpenAI key never lacks one.
  { name: 'openai-key', pattern: /\bsk-proj-[A-Za-z0-9_-]{16,}|\bsk-(?=[A-Za-z_-]{0,30}\d)[A-Za-z0-9_-]{16,}/g },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { name: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}|\bhooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g },
  { name: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  // An Authorization header's value, whatever its scheme.
  {
    name: 'authorization',
    pattern: /\b(?<keep>Authorization["']?\s{0,4}[:=]\s{0,4}["']?(?:(?:Bearer|Basic|Token|Digest)\s{1,4})?)(?!\[REDACTED\])[A-Za-z0-9._~+/=-]{8,}/gi,
  },
  // `Bearer <token>` and `Basic <base64>` elsewhere; a digit or base64 symbol is required so prose ("Basic authentication") stays.
  { name: 'bearer', pattern: /\b(?<keep>(?:Bearer|Basic)\s+)(?=[A-Za-z._~+/=-]{0,200}[0-9+/=])[A-Za-z0-9._~+/=-]{8,}/gi },
  // `scheme://user:password@host`: the user and host stay.
  { name: 'url-credentials', pattern: /\b(?<keep>[a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@]{1,200}:)(?!\[REDACTED\])[^\s/@]{1,200}(?<end>@)/gi },
  // `password=…`, `db_password: "…"`, `"apiKey": '…'`, `aws_secret_access_key = …` in env, JSON, YAML,
  // code and command lines. The name must end at the keyword or a separator after it (`tokens: 3` stays).
  {
    name: 'assignment',
    pattern: new RegExp(
      String.raw`(?<![\w.-])(?<keep>[\w.-]{0,40}${SECRET_NAME}(?:[_.-][\w.-]{0,40})?(?:\\?["'])?\s{0,4}(?:=|:(?!:))\s{0,4})(?:(?<open>\\?["'])${NOT_A_VALUE}(?:\\.|[^"'\n\\]){1,400}?(?<end>\\?["'])|${NOT_A_VALUE}[^\s"',;\\]{3,400})`,
      'gi',
    ),
  },
];

/** The body of a PEM key whose BEGIN line was cut away (a tail kept by truncation): base64 lines up to its END line. */
const ORPHAN_KEY_END = /-----END [A-Z ]{0,40}PRIVATE KEY-----/g;
const KEY_BODY_LINE = /^[A-Za-z0-9+/=]{16,}\r?$/;

function maskOrphanKeyBodies(text: string, counts: Record<string, number>): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  const pieces: string[] = [];
  let copied = 0;
  for (const match of text.matchAll(ORPHAN_KEY_END)) {
    let start = match.index;
    // Walk back over whole base64 lines; the walk stops at the first line that is not one.
    while (start > copied && text[start - 1] === '\n') {
      const lineStart = Math.max(copied, text.lastIndexOf('\n', start - 2) + 1);
      if (!KEY_BODY_LINE.test(text.slice(lineStart, start - 1))) break;
      start = lineStart;
    }
    if (start === match.index) continue;
    counts['private-key'] = (counts['private-key'] ?? 0) + 1;
    pieces.push(text.slice(copied, start), `${REDACTED}\n`);
    copied = match.index;
  }
  return copied === 0 ? text : pieces.join('') + text.slice(copied);
}

export interface RedactionResult {
  text: string;
  /** Secrets masked, all kinds together (what the result reports and the UI shows). */
  count: number;
  /** How many secrets of each kind were masked (for logs and tests). */
  counts: Record<string, number>;
}

export function redactSecretsWithCounts(text: string): RedactionResult {
  const counts: Record<string, number> = {};
  let result = text;
  for (const { name, pattern } of SECRET_PATTERNS) {
    result = result.replace(pattern, (...args: unknown[]) => {
      counts[name] = (counts[name] ?? 0) + 1;
      const groups = args.at(-1) as Record<string, string | undefined> | string;
      return typeof groups === 'object' ? `${groups.keep ?? ''}${groups.open ?? ''}${REDACTED}${groups.end ?? ''}` : REDACTED;
    });
  }
  // The text before the END line was already matched by nothing above, so this cannot double count.
  result = maskOrphanKeyBodies(result, counts);
  return { text: result, count: Object.values(counts).reduce((sum, n) => sum + n, 0), counts };
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
