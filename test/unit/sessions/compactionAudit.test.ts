// Issue 39, item 2: what the agent's own compaction carried of what the person had established, and
// what it dropped; on Claude Code's real /compact (recorded offline, scripted summary) and on made-up text.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { auditCompaction, droppedSentence } from '../../../src/engine/audit/compactionAudit';
import type { ContextItem } from '../../../src/engine/model';
import { identifyFile } from '../../../src/sessions/agents';
import { auditCompactions, contextBefore } from '../../../src/sessions/compactionAudit';
import { engineContextOf } from '../../../src/sessions/engineContext';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'claude-code', 'compact-audit', 'projects', '-home-user-payments-audit');
/** The one rollout of a Codex fixture recorded with the real CLI. */
function codexRollout(name: string): string {
  const day = (dir: string): string => join(dir, readdirSync(dir).sort()[0] as string);
  const folder = day(day(day(join(__dirname, '..', '..', 'fixtures', 'codex', name, 'sessions'))));
  return join(folder, readdirSync(folder).find((entry) => entry.endsWith('.jsonl')) as string);
}
const transcript = (): string => join(FIXTURE, readdirSync(FIXTURE).find((name) => name.endsWith('.jsonl')) as string);

const item = (id: number, kind: ContextItem['kind'], text: string): ContextItem =>
  ({ id, kind, role: kind === 'user' ? 'user' : 'assistant', text, tokens: Math.ceil(text.length / 4) }) as ContextItem;

describe("the audit of an agent's own compaction", () => {
  it("Claude Code's /compact whose summary dropped one rule and one decision: exactly those are dropped, the others carried", async () => {
    const path = transcript();
    const { adapter } = await identifyFile(path);
    assert.ok(adapter, 'no agent reads ' + path);
    const info = await adapter.readSessionInfo(path);
    assert.ok(info.ok);
    const live = await adapter.readLiveContext(info.value);
    assert.ok(live.ok);
    const [audited] = await auditCompactions(adapter, live.value, engineContextOf(live.value));
    assert.ok(audited);
    const texts = (entries: { kind: string; text: string }[]) => entries.map((entry) => `${entry.kind}: ${entry.text}`).sort();
    assert.deepEqual(texts(audited.audit.dropped), [
      'decision: We decided to keep the HttpError class unchanged.',
      'rule: Always run npm test before you report that a change works.',
    ]);
    assert.deepEqual(texts(audited.audit.carried), [
      "decision: Let's go with exponential backoff for the retry delays.",
      'file: src/retry.ts',
      'rule: Never modify config/prod.yaml.',
    ]);
    assert.equal(droppedSentence(audited.audit), 'dropped 1 rule, 1 decision');
    // The context before it is the session as it stood then: the first prompt and the fix, not the prompt after.
    const before = await contextBefore(adapter, live.value, live.value.compactions[0]!);
    assert.ok(before.ok);
    assert.equal(before.value.live.session.path, path);
    assert.ok(before.value.context.items.some((entry) => entry.text.includes('Never modify config/prod.yaml')));
    assert.ok(!before.value.context.items.some((entry) => entry.text.includes('stop retrying client errors')));
  });

  it("Codex's own compaction whose summary dropped one rule and one decision (recorded with the real CLI): exactly those are dropped, the others carried", async () => {
    // Codex keeps the person's messages beside its summary up to a budget; the pasted log filled it,
    // so the first prompt (the rules and decisions) survives only through the summary.
    const path = codexRollout('compact-audit');
    const { adapter } = await identifyFile(path);
    assert.ok(adapter, 'no agent reads ' + path);
    const info = await adapter.readSessionInfo(path);
    assert.ok(info.ok);
    const live = await adapter.readLiveContext(info.value);
    assert.ok(live.ok);
    assert.equal(live.value.compactions.length, 1);
    const [audited] = await auditCompactions(adapter, live.value, engineContextOf(live.value));
    assert.ok(audited);
    const texts = (entries: { kind: string; text: string }[]) => entries.map((entry) => `${entry.kind}: ${entry.text}`).sort();
    assert.deepEqual(texts(audited.audit.dropped), [
      'decision: We decided to keep the HttpError class unchanged.',
      'rule: Always run npm test before you report that a change works.',
    ]);
    assert.deepEqual(texts(audited.audit.carried), [
      "decision: Let's go with exponential backoff for the retry delays.",
      'file: src/retry.js',
      'rule: Never modify config/prod.yaml.',
    ]);
    const before = await contextBefore(adapter, live.value, live.value.compactions[0]!);
    assert.ok(before.ok);
    assert.ok(before.value.context.items.some((entry) => entry.text.includes('Never modify config/prod.yaml')));
    assert.ok(!before.value.context.items.some((entry) => entry.text.includes('stop retrying client errors')));
  });

  it("Codex's own compaction (recorded with the real CLI): the person's message it keeps carries their open loop", async () => {
    const path = codexRollout('tally');
    const { adapter } = await identifyFile(path);
    assert.ok(adapter, 'no agent reads ' + path);
    const info = await adapter.readSessionInfo(path);
    assert.ok(info.ok);
    const live = await adapter.readLiveContext(info.value);
    assert.ok(live.ok);
    const [audited] = await auditCompactions(adapter, live.value, engineContextOf(live.value));
    assert.ok(audited);
    assert.deepEqual(audited.audit.dropped, []);
    assert.ok(audited.audit.carried.some((entry) => entry.kind === 'open-loop' && entry.text.includes('data/ledger.csv')));
  });

  it('audits only the latest `limit` compactions: knowing those, it reads none of the older ones', async () => {
    // Codex's compact-audit rollout with its compaction record written again at the end: two compactions.
    const dir = mkdtempSync(join(tmpdir(), 'cl-audit-limit-'));
    try {
      const source = codexRollout('compact-audit');
      const path = join(dir, basename(source));
      const text = readFileSync(source, 'utf8');
      const compacted = text.split('\n').find((line) => line.includes('"type":"compacted"'));
      assert.ok(compacted);
      writeFileSync(path, `${text}${compacted}\n`);
      const { adapter } = await identifyFile(path);
      assert.ok(adapter);
      const info = await adapter.readSessionInfo(path);
      assert.ok(info.ok);
      const live = await adapter.readLiveContext(info.value);
      assert.ok(live.ok);
      assert.equal(live.value.compactions.length, 2);
      const context = engineContextOf(live.value);
      const latest = live.value.compactions[1];
      assert.deepEqual(
        (await auditCompactions(adapter, live.value, context, 1)).map(({ index }) => index),
        [1],
      );
      assert.deepEqual(await auditCompactions(adapter, live.value, context, 1, (event) => event === latest), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a paraphrase carries a rule, a summary that never names it drops it; files changed are carried when named', () => {
    const before = [
      item(1, 'user', 'Never touch the billing tables. We decided to use Postgres advisory locks for the queue. TODO: benchmark the worker pool.'),
      item(2, 'assistant', 'Done.'),
    ];
    const audit = auditCompaction(before, 'The user asked that the billing tables are never touched. Open: benchmark of the worker pool.');
    assert.deepEqual(
      audit.dropped.map((entry) => entry.kind),
      ['decision'],
    );
    assert.deepEqual(audit.carried.map((entry) => entry.kind).sort(), ['open-loop', 'rule']);
    assert.equal(droppedSentence(auditCompaction(before, before.map((entry) => entry.text).join('\n'))), 'dropped nothing of yours');
  });
});
