// Issue 39, item 2, for the Gemini CLI: the audit of its own compression, recorded with the real CLI
// 0.61.0 offline (compress-audit: its <state_snapshot> drops one of the person's two rules and one
// of their two decisions). The compression keeps the latest prompt verbatim after its summary: what
// that prompt says is carried too (it was listed as dropped when only the summary and the messages
// up to the model's "Got it." counted as kept).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { droppedSentence } from '../../../../src/engine/audit/compactionAudit';
import { auditCompactions, contextBefore } from '../../../../src/sessions/compactionAudit';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { geminiAdapter } from '../../../../src/sessions/gemini/adapter';

const RECORDED = join(__dirname, '..', '..', '..', 'fixtures', 'gemini', 'recorded');
const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-audit-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** The recorded chat of `scenario`, copied (the test may delete it). */
function chatOf(scenario: string): string {
  const from = join(RECORDED, scenario, 'gemini');
  const to = join(temp, scenario, '.gemini');
  cpSync(from, to, { recursive: true });
  const chats = join(to, 'tmp', readdirSync(join(to, 'tmp')).find((name) => !name.endsWith('.json')) as string, 'chats');
  return join(chats, readdirSync(chats).find((name) => name.startsWith('session-')) as string);
}

async function liveOf(path: string) {
  const info = await geminiAdapter.readSessionInfo(path);
  assert.ok(info.ok, info.ok ? '' : info.error.message);
  const live = await geminiAdapter.readLiveContext(info.value);
  assert.ok(live.ok, live.ok ? '' : live.error.message);
  return live.value;
}

const texts = (entries: readonly { kind: string; text: string }[]): string[] => entries.map((entry) => `${entry.kind}: ${entry.text}`).sort();

describe("the audit of the Gemini CLI's own compression", () => {
  it('compress-audit: exactly the rule and the decision its summary dropped are dropped; the kept prompt carries its open loop', async () => {
    const live = await liveOf(chatOf('compress-audit'));
    assert.equal(live.compactions.length, 1);
    const [audited] = await auditCompactions(geminiAdapter, live, engineContextOf(live));
    assert.ok(audited);
    assert.deepEqual(texts(audited.audit.dropped), ['decision: We decided to store prices in pence.', 'rule: Always run the linter before you commit.']);
    assert.deepEqual(texts(audited.audit.carried), [
      "decision: Let's go with plain Error objects for stock errors.",
      'file: src/stock.js',
      'open-loop: TODO for later: negative quantities.',
      'rule: Never edit package.json.',
    ]);
    assert.equal(droppedSentence(audited.audit), 'dropped 1 rule, 1 decision');
  });

  it('the context before it holds both prompts and the edit, not the answer after it; the summary is not part of it', async () => {
    const path = chatOf('compress-audit');
    const live = await liveOf(path);
    const before = await contextBefore(geminiAdapter, live, live.compactions[0]!);
    assert.ok(before.ok, before.ok ? '' : before.error.message);
    assert.equal(before.value.live.session.path, path);
    const said = before.value.context.items.map((item) => item.text).join('\n');
    assert.ok(said.includes('Always run the linter before you commit.'));
    assert.ok(said.includes('TODO for later: negative quantities.'));
    assert.ok(!said.includes('<state_snapshot>'));
    assert.ok(!said.includes('reserve() now throws'));
    assert.deepEqual(before.value.live.compactions, []);
    // What it kept: the summary, the model's acknowledgement and the prompt kept verbatim, nothing the model said after.
    assert.ok(before.value.kept?.includes('<state_snapshot>'));
    assert.ok(before.value.kept?.includes('Read CHANGELOG.md, then make reserve() refuse to go below zero.'));
    assert.ok(!before.value.kept?.includes('reserve() now throws'));
  });

  it('compress (recorded earlier): the open loop of the prompt the compression kept verbatim is carried, not dropped', async () => {
    const live = await liveOf(chatOf('compress'));
    const [audited] = await auditCompactions(geminiAdapter, live, engineContextOf(live));
    assert.ok(audited);
    assert.deepEqual(texts(audited.audit.dropped), []);
    assert.ok(texts(audited.audit.carried).includes('open-loop: TODO for later: negative quantities.'));
  });

  it('a chat gone since it was read: a clear failure, no audit, no throw', async () => {
    const path = chatOf('compress-audit');
    const live = await liveOf(path);
    rmSync(path);
    const before = await contextBefore(geminiAdapter, live, live.compactions[0]!);
    assert.equal(before.ok, false);
    assert.deepEqual(await auditCompactions(geminiAdapter, live, engineContextOf(live)), []);
  });
});
