import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { splitPair, writeFork } from '../../../../src/sessions/claude-code/fork';
import { readFill } from '../../../../src/sessions/claude-code/fill';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import type { RawRecord } from '../../../../src/sessions/claude-code/records';
import type { TranscriptBuilder } from './builders';
import { basicSession, tempDir } from './builders';

const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function session(): { path: string; builder: TranscriptBuilder; uuids: string[] } {
  const builder = basicSession();
  builder.user('Now the 4xx case');
  builder.text('msg_3', 'On it.', { input: 20, cacheRead: 1200, output: 5 });
  const path = builder.write(tempDir());
  return { path, builder, uuids: builder.lines.map((line) => (JSON.parse(line) as { uuid: string }).uuid) };
}

describe('writeFork', () => {
  it('writes a new resumable session and never touches the source', async () => {
    const { path, uuids } = session();
    const before = hash(path);
    const preserved = uuids.slice(5);
    const result = await writeFork({
      sourcePath: path,
      summary: 'Summary: fixed retries.',
      preserveUuids: preserved,
      focus: 'retry logic',
      preTokens: 2300,
      postTokens: 400,
      title: 'Fork of retry fix',
    });
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    const fork = result.value;
    assert.equal(hash(path), before);
    assert.equal(dirname(fork.path), dirname(path));
    assert.match(fork.sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(fork.resumeCommand, `claude --resume ${fork.sessionId}`);
    assert.deepEqual(
      readdirSync(dirname(path)).filter((name) => name.endsWith('.tmp')),
      [],
    );

    const records = readFileSync(fork.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RawRecord);
    const [boundary, summary, ...rest] = records;
    assert.equal(boundary?.subtype, 'compact_boundary');
    assert.equal(boundary?.parentUuid, null);
    assert.equal(boundary?.logicalParentUuid, uuids.at(-1));
    assert.deepEqual(boundary?.compactMetadata, { trigger: 'manual', preTokens: 2300, postTokens: 400, userContext: 'retry logic' });
    assert.equal((boundary?.contextLens as { writer: string }).writer, 'context-lens');
    assert.equal(summary?.isCompactSummary, true);
    assert.equal(summary?.parentUuid, boundary?.uuid);
    assert.match((summary?.message as { content: string }).content, /^This session is being continued[\s\S]*Summary: fixed retries\.$/);
    for (const record of records.slice(0, -1)) {
      assert.equal(record.sessionId, fork.sessionId);
      assert.equal(record.cwd, '/home/user/project');
      assert.equal(record.version, '2.1.328');
    }
    assert.equal(rest[0]?.parentUuid, summary?.uuid);
    assert.equal(rest[1]?.parentUuid, rest[0]?.uuid);
    assert.ok(!uuids.includes(rest[0]?.uuid as string), 'fresh uuids');
    assert.equal(records.at(-1)?.type, 'custom-title');

    const live = await readLiveContext(fork.path);
    assert.ok(live.ok);
    assert.deepEqual(
      live.value.entries.map((entry) => entry.kind),
      ['compact-summary', 'assistant'],
    );
    assert.equal(live.value.compactions[0]?.focus, 'retry logic');
    assert.deepEqual(live.value.diagnostics, []);
  });

  it("does not carry pre-compaction usage into the fork: its fill is the boundary's postTokens until the next call", async () => {
    const { path, uuids } = session();
    const result = await writeFork({ sourcePath: path, summary: 'Summary.', preserveUuids: uuids.slice(5), preTokens: 2300, postTokens: 400 });
    assert.ok(result.ok);
    const copied = readFileSync(result.value.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RawRecord)
      .filter((record) => record.type === 'assistant');
    assert.ok(copied.length > 0);
    for (const record of copied) assert.equal('usage' in (record.message as object), false);
    const fill = await readFill(result.value.path);
    assert.ok(fill.ok);
    assert.deepEqual([fill.value.fill.usedTokens, fill.value.fill.source], [400, 'estimate']);
  });

  it('refuses to split a tool_use from its tool_result, and unknown uuids', async () => {
    const { path, uuids } = session();
    const split = await writeFork({ sourcePath: path, summary: 's', preserveUuids: uuids.slice(3), preTokens: null, postTokens: null });
    assert.equal(split.ok ? 'ok' : split.error.code, 'split-tool-pair');
    const unknown = await writeFork({ sourcePath: path, summary: 's', preserveUuids: ['nope'], preTokens: null, postTokens: null });
    assert.equal(unknown.ok ? 'ok' : unknown.error.code, 'invalid-input');
    const missing = await writeFork({ sourcePath: `${path}.gone`, summary: 's', preserveUuids: [], preTokens: null, postTokens: null });
    assert.equal(missing.ok ? 'ok' : missing.error.code, 'not-found');
    assert.equal(readdirSync(dirname(path)).length, 1, 'nothing written on refusal');
  });

  it('closes a call still running when the source was read (no result anywhere) with an error result, and says so', async () => {
    const builder = basicSession();
    builder.user('Now run the tests');
    builder.assistant(
      'msg_3',
      [
        { type: 'text', text: 'Running them.' },
        { type: 'tool_use', id: 'toolu_run', name: 'Bash', input: { command: 'npm test' } },
      ],
      { input: 5, cacheRead: 1200, output: 20 },
    );
    const path = builder.write(tempDir());
    const uuids = builder.lines.map((line) => (JSON.parse(line) as { uuid: string }).uuid);
    const result = await writeFork({ sourcePath: path, summary: 'Summary.', preserveUuids: uuids.slice(4), preTokens: 1300, postTokens: 300 });
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    assert.equal(result.value.notes.length, 1);
    assert.match(result.value.notes[0] ?? '', /Bash \(toolu_run\) had no result yet/);
    const records = readFileSync(result.value.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RawRecord);
    const at = records.findIndex((record) => JSON.stringify(record.message ?? '').includes('"id":"toolu_run"'));
    // Right after the response's last record, in the chain, looking like its neighbours.
    const closing = records.slice(at + 1).find((record) => record.type !== 'assistant');
    const content = (closing?.message as { content: { type: string; tool_use_id: string; is_error: boolean }[] }).content;
    assert.deepEqual(
      content.map((block) => [block.type, block.tool_use_id, block.is_error]),
      [['tool_result', 'toolu_run', true]],
    );
    assert.equal(closing?.parentUuid, records.slice(0, records.indexOf(closing as RawRecord)).at(-1)?.uuid);
    assert.equal(closing?.cwd, '/home/user/project');
    const live = await readLiveContext(result.value.path);
    assert.ok(live.ok);
    assert.deepEqual(live.value.entries.map((entry) => entry.kind).slice(-2), ['assistant', 'tool-result']);
    assert.deepEqual(live.value.diagnostics, []);
    // A result that exists in the source but was not kept is still a split.
    const split = await writeFork({ sourcePath: path, summary: 's', preserveUuids: uuids.slice(1, 3), preTokens: null, postTokens: null });
    assert.equal(split.ok ? 'ok' : split.error.code, 'split-tool-pair');
  });

  it('keeps a pair intact and remaps sourceToolAssistantUUID', async () => {
    const { path, uuids } = session();
    const result = await writeFork({
      sourcePath: path,
      summary: 's',
      preserveUuids: uuids.slice(1, 4),
      preTokens: 1,
      postTokens: 1,
      newUuid: (() => {
        let n = 0;
        return () => `00000000-0000-4000-8000-9${String(++n).padStart(11, '0')}`;
      })(),
    });
    assert.ok(result.ok);
    const live = await readLiveContext(result.value.path);
    assert.ok(live.ok);
    assert.deepEqual(
      live.value.entries.map((entry) => entry.kind),
      ['compact-summary', 'assistant', 'tool-result'],
    );
    assert.deepEqual(live.value.diagnostics, []);
  });

  it('writes replaced content for preserved records, keeping their tool ids', async () => {
    const { path, uuids } = session();
    const resultUuid = uuids[3] as string;
    const stub = [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '[COMPACTED] stub' }];
    const result = await writeFork({
      sourcePath: path,
      summary: 's',
      preserveUuids: uuids.slice(1, 4),
      replaceContent: { [resultUuid]: stub },
      preTokens: 1,
      postTokens: 1,
    });
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    const live = await readLiveContext(result.value.path);
    assert.ok(live.ok);
    const toolResult = live.value.messages.flatMap((message) => message.content).find((block) => block.type === 'tool_result');
    assert.equal(toolResult?.content, '[COMPACTED] stub');
    assert.deepEqual(live.value.diagnostics, []);
  });

  it('refuses replacements that change tool ids or target records it does not keep', async () => {
    const { path, uuids } = session();
    const resultUuid = uuids[3] as string;
    const otherId = await writeFork({
      sourcePath: path,
      summary: 's',
      preserveUuids: uuids.slice(1, 4),
      replaceContent: { [resultUuid]: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] },
      preTokens: 1,
      postTokens: 1,
    });
    assert.equal(otherId.ok ? 'ok' : otherId.error.code, 'invalid-input');
    const notKept = await writeFork({
      sourcePath: path,
      summary: 's',
      preserveUuids: uuids.slice(4),
      replaceContent: { [resultUuid]: 'x' },
      preTokens: 1,
      postTokens: 1,
    });
    assert.equal(notKept.ok ? 'ok' : notKept.error.code, 'invalid-input');
    assert.equal(readdirSync(dirname(path)).length, 1, 'nothing written on refusal');
  });

  it('property: any selection the writer accepts contains only whole pairs', () => {
    const records: RawRecord[] = [];
    for (let index = 0; index < 6; index++) {
      records.push({ type: 'assistant', message: { content: [{ type: 'tool_use', id: `t${index}` }] } });
      records.push({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: `t${index}` }] } });
    }
    fc.assert(
      fc.property(fc.subarray(records.map((_, index) => index)), (picked) => {
        const selection = picked.map((index) => records[index] as RawRecord);
        const wholePairs = [0, 1, 2, 3, 4, 5].every((pair) => picked.includes(pair * 2) === picked.includes(pair * 2 + 1));
        assert.equal(splitPair(selection) === null, wholePairs);
      }),
    );
  });
});
