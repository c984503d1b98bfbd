// The fork as an export-format document: our summary in OpenCode's own compaction shape, the kept
// messages after it with new ids in creation order, the dropped tool call gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { opencodeAdapter } from '../../../../src/sessions/opencode/adapter';
import { OPENCODE_FLAVOUR } from '../../../../src/sessions/opencode/flavour';
import { forkFileOf } from '../../../../src/sessions/common/opencodeFamily/forkFile';
import { parseSessionPath, sessionPath } from '../../../../src/sessions/common/opencodeFamily/paths';
import type { SessionLocations } from '../../../../src/sessions/port';
import { unpackFixture } from '../../../support/opencodeWal';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-forkfile-'));
after(() => rmSync(temp, { recursive: true, force: true }));

interface Doc {
  info: { id: string; title: string; directory: string };
  messages: {
    info: { id: string; sessionID: string; role: string; summary?: boolean; parentID?: string };
    parts: { type: string; text?: string; tool?: string; callID?: string; messageID: string }[];
  }[];
}

describe('forkFileOf', () => {
  it("writes our summary as OpenCode's compaction, then the kept messages, without the dropped call", async () => {
    const db = join(temp, 'tools.db');
    unpackFixture('tools', db);
    const listed = await opencodeAdapter.listSessions({ homes: { opencode: [db] } } as SessionLocations);
    assert.ok(listed.ok);
    const [session] = listed.value;
    assert.ok(session);
    const live = await opencodeAdapter.readLiveContext(session);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    const output = context.items.findIndex((item) => item.kind === 'tool_result');
    const dropped = context.items[output]?.toolUseId;
    const result = await compact(context, { trigger: 'manual', choices: { keep: [], drop: [output] } }, { archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted');
    const file = await forkFileOf(OPENCODE_FLAVOUR, { live: live.value, context, result }, 1_795_700_000_000);
    assert.ok(file.ok, file.ok ? '' : file.error.message);
    const doc = file.value.document as unknown as Doc;
    assert.equal(parseSessionPath(sessionPath(db, file.value.sessionId))?.sessionId, file.value.sessionId);
    assert.equal(doc.info.id, file.value.sessionId);
    assert.equal(doc.info.title, 'Offline session (compacted)');
    const [request, summary, ...kept] = doc.messages;
    assert.deepEqual(
      request?.parts.map((part) => part.type),
      ['compaction'],
    );
    assert.equal(summary?.info.summary, true);
    assert.equal(summary?.info.parentID, request?.info.id);
    assert.ok((summary?.parts[0]?.text ?? '').length > 100);
    const ids = doc.messages.map((message) => message.info.id);
    assert.deepEqual([...ids].sort(), ids, 'ids sort in creation order, as OpenCode replays them');
    assert.ok(doc.messages.every((message) => message.info.sessionID === doc.info.id && message.parts.every((part) => part.messageID === message.info.id)));
    const calls = kept.flatMap((message) => message.parts.filter((part) => part.type === 'tool').map((part) => part.callID));
    assert.ok(dropped !== undefined && !calls.includes(dropped));
    assert.ok(calls.length > 0 && calls.length < 4);
  });
});
