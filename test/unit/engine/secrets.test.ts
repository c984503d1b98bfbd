// Secrets in the transcript do not leave it through anything the engine writes: the summary (the
// heuristic's error bullets, an LLM's answer), stubs, truncations, the diff, the archive and the
// focus text; the result counts what it masked.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileSystemArchive } from '../../../src/archive/fileArchive';
import { MemoryArchive } from '../../../src/engine/archive';
import { compact } from '../../../src/engine/compact';
import { plan } from '../../../src/engine/plan';
import type { CompactionResult } from '../../../src/engine/result';
import type { Summarizer } from '../../../src/engine/summarizers/types';
import { charEstimateTokenizer as tokenizer } from '../../../src/engine/tokens/tokenizer';
import { assistant, big, build, call, results, user } from './support/build';
import { tempDir } from '../../support/tempDir';

const KEYS = {
  anthropic: 'sk-ant-api03-Zx9kQ2mN7pR4tV6wY8bC1dF3',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  db: 'hunter2hunter2',
  url: 'p4ssw0rdInUrl',
  focus: 'sk-proj-focusfocusfocusfocus',
};
const ALL = Object.values(KEYS);
// The JWT's header is generic: its payload is what must not leak.
const leaked = (text: string): string[] => ALL.map((key) => (key === KEYS.jwt ? 'eyJzdWIiOiIxMjM0NTY3ODkwIn0' : key)).filter((key) => text.includes(key));

const errorLine = `Error: 401 Unauthorized: key ${KEYS.anthropic} rejected (aws ${KEYS.aws}, token ${KEYS.jwt})`;
const deployCommand = `DB_PASSWORD=${KEYS.db} ./deploy --db postgres://app:${KEYS.url}@db:5432/x`;
const conversation = [
  user('Deploy the service. Never touch prod.'),
  assistant(call('d1', 'Bash', { command: deployCommand })),
  results({ id: 'd1', output: `${errorLine}\n${big('log', 6_000)}\naws_secret_access_key = ${KEYS.awsSecret}`, isError: true }),
  assistant('The deploy failed because the key expired. Next I will rotate it.'),
  assistant(call('d2', 'Bash', { command: deployCommand })),
  results({ id: 'd2', output: `${errorLine}\n${big('log again', 6_000)}`, isError: true }),
  assistant('I decided to use the staging key instead.'),
  user('Fine, carry on.'),
  assistant('Working on it.'),
];
const context = () => build(conversation, { windowTokens: 12_000 });

/** Everything a compaction hands out: what the fork, the preview and the CLI are built from. */
function written(result: CompactionResult): string {
  const changed = result.after.items.filter((item) => item.block === undefined).map((item) => item.text);
  return [result.summary?.text ?? '', ...changed, result.diff, JSON.stringify(result.items), result.message].join('\n');
}

describe('secrets in a compaction', () => {
  it('an error line with keys does not reach the summary, stubs, truncations or the diff', async () => {
    const result = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted');
    assert.ok(result.summary, 'summarised');
    assert.match(result.summary.text, /Errors and root causes/);
    assert.deepEqual(leaked(written(result)), []);
    assert.ok(result.metrics.redactions > 0, 'the result says it masked something');
  });

  it('a stub naming a command with a password does not carry it', async () => {
    // Command outputs are denied to tier 1 by default.
    const result = await compact(
      context(),
      { trigger: 'manual', supersede: { deniedCategories: [] }, summary: { enabled: false }, truncate: { enabled: false } },
      { tokenizer },
    );
    const stub = result.items.find((fate) => fate.tier === 'supersede');
    assert.ok(stub, 'the first deploy output was superseded');
    const text = result.after.items.find((item) => item.kind === 'tool_result' && item.toolUseId === 'd1')?.text ?? '';
    assert.match(text, /DB_PASSWORD=\[REDACTED\]/);
    assert.deepEqual(leaked(text), []);
    assert.ok(result.metrics.redactions >= 2);
  });

  it('an LLM summary that quotes a key is masked, and the prompt it was given held none', async () => {
    const prompts: string[] = [];
    const llm: Summarizer = {
      name: 'llm',
      summarize: (request) => {
        prompts.push(request.prompt);
        return Promise.resolve({
          ok: true,
          value: `## Errors and root causes\n- The deploy failed with ${KEYS.anthropic} and ${KEYS.aws} because the key had expired.\n## Remaining work\n- Rotate the key, then run the deploy again with the staging key and check it.`,
        });
      },
    };
    const result = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive(), summarizer: llm });
    assert.equal(result.summary?.summarizer, 'llm');
    assert.deepEqual(leaked(result.summary?.text ?? ''), []);
    assert.equal(prompts.length, 1);
    assert.deepEqual(leaked(prompts[0] ?? ''), []);
  });

  it("the archive holds no key, nor the focus text's", async () => {
    const folder = tempDir('secrets-archive-');
    const result = await compact(context(), { trigger: 'manual', focus: `deploy with ${KEYS.focus}` }, { tokenizer, archive: new FileSystemArchive(folder) });
    assert.ok(result.archive);
    const [file] = readdirSync(folder);
    const stored = readFileSync(join(folder, file ?? ''), 'utf8');
    assert.deepEqual(leaked(stored), []);
    const entry = JSON.parse(stored) as { reason: string; context: { items: unknown[] } };
    assert.equal(entry.context.items.length, context().items.length, 'still the whole context, as valid JSON');
    assert.match(entry.reason, /deploy with \[REDACTED\]/);
  });

  it('the live plan counts what its preview summary masked', () => {
    const planned = plan(context(), { trigger: 'manual' }, { tokenizer });
    assert.deepEqual(leaked(planned.summaryPreview ?? ''), []);
    assert.ok(planned.metrics.redactions > 0);
  });

  it('nothing to mask: no redaction reported', async () => {
    const clean = build(
      [
        user('Refactor it.'),
        assistant(call('r', 'Bash', { command: 'npm test' })),
        results({ id: 'r', output: big('ok', 9_000) }),
        assistant('done'),
        user('next'),
        assistant('ok'),
      ],
      { windowTokens: 12_000 },
    );
    const result = await compact(clean, { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive() });
    assert.equal(result.metrics.redactions, 0);
  });
});
