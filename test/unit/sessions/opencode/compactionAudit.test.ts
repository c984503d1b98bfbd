// Issue 39, item 2, for OpenCode: the audit of its own compaction, recorded with the real CLI
// 1.18.33 offline (compaction-audit: a small window makes it compact on its own, and its summary
// drops one of the person's two rules and one of their two decisions). Its compactions have no byte
// offset (the session is rows of a database): the adapter cuts the rows at the compaction request.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { droppedSentence } from '../../../../src/engine/audit/compactionAudit';
import { compact } from '../../../../src/engine/compact';
import { forkFileOf } from '../../../../src/sessions/common/opencodeFamily/forkFile';
import { auditCompactions, contextBefore } from '../../../../src/sessions/compactionAudit';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { opencodeAdapter } from '../../../../src/sessions/opencode/adapter';
import { OPENCODE_FLAVOUR } from '../../../../src/sessions/opencode/flavour';
import type { SessionLocations } from '../../../../src/sessions/port';
import { unpackFixture } from '../../../support/opencodeWal';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-audit-'));
after(() => rmSync(temp, { recursive: true, force: true }));

async function liveOf(name: string) {
  const db = join(temp, `${name}.db`);
  unpackFixture(name, db);
  const listed = await opencodeAdapter.listSessions({ homes: { opencode: [db] } } as SessionLocations);
  assert.ok(listed.ok, JSON.stringify(listed));
  const [session] = listed.value;
  assert.ok(session);
  const live = await opencodeAdapter.readLiveContext(session);
  assert.ok(live.ok, JSON.stringify(live));
  return live.value;
}

const texts = (entries: readonly { kind: string; text: string }[]): string[] => entries.map((entry) => `${entry.kind}: ${entry.text}`).sort();

describe("the audit of OpenCode's own compaction", () => {
  it('compaction-audit: exactly the rule and the decision its summary dropped are dropped, the others carried', async () => {
    const live = await liveOf('compaction-audit');
    assert.equal(live.compactions.length, 1);
    assert.equal(live.compactions[0]?.offset, undefined, 'a database row has no byte offset');
    const [audited] = await auditCompactions(opencodeAdapter, live, engineContextOf(live));
    assert.ok(audited, 'the compaction is audited');
    // `opencode run "…"` stores the prompt in double quotes: the last sentence ends with one.
    assert.deepEqual(texts(audited.audit.dropped), [
      'decision: We decided to keep the line format unchanged."',
      'rule: Always run npm test before you report that a change works.',
    ]);
    assert.deepEqual(texts(audited.audit.carried), ["decision: Let's go with plain Error objects for parse errors.", 'rule: Never edit big.txt.']);
    assert.equal(droppedSentence(audited.audit), 'dropped 1 rule, 1 decision');
  });

  it('the context before it is the first prompt, the read and the answer; what it kept is the summary and the synthetic "Continue…", not what came after', async () => {
    const live = await liveOf('compaction-audit');
    const before = await contextBefore(opencodeAdapter, live, live.compactions[0]!);
    assert.ok(before.ok, before.ok ? '' : before.error.message);
    assert.equal(before.value.live.session.path, live.session.path);
    assert.deepEqual(
      before.value.live.messages.map((message) => message.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const said = before.value.context.items.map((item) => item.text).join('\n');
    assert.ok(said.includes('Never edit big.txt.'));
    assert.ok(said.includes('It repeats one sentence about a fox.'));
    assert.ok(!said.includes('## Goal'));
    assert.ok(!said.includes('Anything else?'));
    assert.deepEqual(before.value.live.compactions, []);
    assert.ok(before.value.kept?.includes('The user said big.txt must never be edited.'));
    assert.ok(before.value.kept?.includes('Continue if you have next steps'));
    assert.ok(!before.value.kept?.includes('Anything else?'));
  });

  it("Redo: the fork of the context before OpenCode's compaction keeps that context's messages, not what came after it", async () => {
    const live = await liveOf('compaction-audit');
    const before = await contextBefore(opencodeAdapter, live, live.compactions[0]!);
    assert.ok(before.ok);
    const { context } = before.value;
    const read = context.items.findIndex((item) => item.kind === 'tool_result');
    const result = await compact(context, { trigger: 'manual', choices: { keep: [], drop: [read] } }, { archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted', result.status === 'compacted' ? '' : result.message);
    const file = await forkFileOf(OPENCODE_FLAVOUR, { live: before.value.live, context, result }, 1_795_700_000_000);
    assert.ok(file.ok, file.ok ? '' : file.error.message);
    const doc = file.value.document as { messages: { info: { role: string }; parts: { type: string; text?: string }[] }[] };
    const texts = doc.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : []))).join('\n');
    // Kept verbatim after our summary: the first prompt (all four of the person's rules and decisions) and the answer before the compaction.
    assert.ok(texts.includes('Always run npm test before you report that a change works.'), texts.slice(0, 2000));
    assert.ok(texts.includes('It repeats one sentence about a fox.'));
    assert.ok(!texts.includes('Anything else?'));
    assert.ok(!texts.includes('The user said big.txt must never be edited.'), "OpenCode's own summary is what ours replaces");
  });

  it('the earlier compaction recording is audited too (nothing of the person to carry)', async () => {
    const live = await liveOf('compaction');
    const audited = await auditCompactions(opencodeAdapter, live, engineContextOf(live));
    assert.equal(audited.length, 1);
    assert.deepEqual(audited[0]?.audit, { carried: [], dropped: [] });
  });

  it('a compaction the database no longer holds: a clear failure, no audit, no throw', async () => {
    const live = await liveOf('compaction-audit');
    const gone = { ...live.compactions[0]!, uuid: 'msg_not_there' };
    const before = await contextBefore(opencodeAdapter, live, gone);
    assert.equal(before.ok, false);
    assert.match(before.ok ? '' : before.error.message, /No compaction msg_not_there/);
    assert.deepEqual(await auditCompactions(opencodeAdapter, { ...live, compactions: [gone] }, engineContextOf(live)), []);
  });
});
