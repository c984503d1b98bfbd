import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { RecordGraph } from '../../../../src/sessions/claude-code/chain';
import type { LocatedRecord, RawRecord } from '../../../../src/sessions/claude-code/records';
import { TranscriptBuilder, tempDir } from './builders';

function located(record: RawRecord, line: number): LocatedRecord {
  return { record, line, offset: line * 100, end: line * 100 + 99 };
}

function graphOf(records: RawRecord[]): RecordGraph {
  const graph = new RecordGraph('t.jsonl');
  records.forEach((record, index) => graph.add(located(record, index + 1)));
  return graph;
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const user = (uuid: string, parentUuid: string | null, second: number, extra: RawRecord = {}): RawRecord => ({
  type: 'user',
  uuid,
  parentUuid,
  timestamp: at(second),
  isSidechain: false,
  message: { role: 'user', content: uuid },
  ...extra,
});

describe('RecordGraph', () => {
  it('picks the newest non-sidechain leaf by timestamp and walks to the root', () => {
    const graph = graphOf([user('a', null, 1), user('b', 'a', 2), user('old-branch', 'a', 3), user('c', 'b', 4), user('side', 'c', 9, { isSidechain: true })]);
    const leaf = graph.liveLeaf();
    assert.equal(leaf?.record.uuid, 'c');
    const walk = graph.walk(leaf as LocatedRecord);
    assert.deepEqual(
      walk.records.map((record) => record.record.uuid),
      ['a', 'b', 'c'],
    );
    assert.equal(walk.stop, 'root');
    assert.equal(graph.liveLeaf(true)?.record.uuid, 'side');
  });

  it('a trailing system line leads back to its conversational parent', () => {
    const graph = graphOf([user('a', null, 1), { type: 'system', subtype: 'turn_duration', uuid: 's', parentUuid: 'a', timestamp: at(5) }]);
    assert.equal(graph.liveLeaf()?.record.uuid, 'a');
  });

  it('stops at a compact boundary', () => {
    const graph = graphOf([
      user('a', null, 1),
      { type: 'system', subtype: 'compact_boundary', uuid: 'cb', parentUuid: null, logicalParentUuid: 'a', timestamp: at(2) },
      user('sum', 'cb', 3, { isCompactSummary: true }),
      user('d', 'sum', 4),
    ]);
    const walk = graph.walk(graph.liveLeaf() as LocatedRecord);
    assert.deepEqual(
      walk.records.map((record) => record.record.uuid),
      ['cb', 'sum', 'd'],
    );
    assert.equal(walk.stop, 'boundary');
  });

  it('cycle: stops with an error diagnostic naming the line', () => {
    const graph = graphOf([user('a', 'c', 1), user('b', 'a', 2), user('c', 'b', 3), user('leaf', 'c', 4)]);
    const walk = graph.walk(graph.get('leaf') as LocatedRecord);
    assert.equal(walk.stop, 'cycle');
    assert.deepEqual(
      walk.records.map((record) => record.record.uuid),
      ['a', 'b', 'c', 'leaf'].slice(0, 4),
    );
    const [diagnostic] = graph.diagnostics();
    assert.equal(diagnostic?.code, 'cycle');
    assert.equal(diagnostic?.severity, 'error');
    assert.equal(typeof diagnostic?.line, 'number');
  });

  it('pure cycle without a leaf: walks from the newest conversational record and reports the cycle', () => {
    const graph = graphOf([user('a', 'b', 1), user('b', 'a', 2), user('side', 'a', 9, { isSidechain: true })]);
    const leaf = graph.liveLeaf();
    assert.equal(leaf?.record.uuid, 'b', 'the newest on this side: the sidechain record is not');
    const walk = graph.walk(leaf as LocatedRecord);
    assert.equal(walk.stop, 'cycle');
    assert.deepEqual(
      walk.records.map((record) => record.record.uuid),
      ['a', 'b'],
    );
    assert.deepEqual(
      graph.diagnostics().map(({ code, line }) => [code, line]),
      [['cycle', 2]],
    );
  });

  it('pure cycle with equal timestamps: the later record in the file leads', () => {
    const graph = graphOf([user('a', 'b', 1), user('b', 'a', 1)]);
    assert.equal(graph.liveLeaf()?.record.uuid, 'b');
  });

  it('pure cycle through readLiveContext: the context it can show, and the cycle diagnostic', async () => {
    const builder = new TranscriptBuilder();
    builder.user('first', { uuid: 'a', parentUuid: 'b' });
    builder.text('msg_1', 'reply', { input: 10, output: 2 }, undefined, { uuid: 'b' });
    const read = await readLiveContext(builder.write(tempDir()));
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.messages.map((message) => message.role),
      ['user', 'assistant'],
    );
    assert.ok(
      read.value.diagnostics.some((diagnostic) => diagnostic.code === 'cycle' && diagnostic.line !== undefined),
      JSON.stringify(read.value.diagnostics),
    );
  });

  it('missing parent: keeps what was found and says where the context starts', () => {
    const graph = graphOf([user('b', 'gone', 1), user('c', 'b', 2)]);
    const walk = graph.walk(graph.liveLeaf() as LocatedRecord);
    assert.equal(walk.stop, 'missing-parent');
    assert.equal(walk.missingParent, 'gone');
    assert.deepEqual(
      walk.records.map((record) => record.record.uuid),
      ['b', 'c'],
    );
    assert.equal(graph.diagnostics()[0]?.code, 'missing-parent');
    assert.equal(graph.diagnostics()[0]?.line, 1);
  });

  it('duplicate uuid: the later record wins, with a warning', () => {
    const graph = graphOf([user('a', null, 1), user('a', null, 2, { message: { role: 'user', content: 'again' } })]);
    assert.equal(graph.size, 1);
    assert.equal(graph.diagnostics()[0]?.code, 'duplicate-uuid');
    assert.equal(graph.diagnostics()[0]?.line, 2);
  });

  it('splices a preserved segment in after the summary, as Claude Code does on load', () => {
    const graph = graphOf([
      user('a', null, 1),
      user('kept', 'a', 2),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'cb',
        parentUuid: null,
        logicalParentUuid: 'kept',
        timestamp: at(3),
        compactMetadata: { preservedSegment: { headUuid: 'kept', anchorUuid: 'sum', tailUuid: 'kept' } },
      },
      user('sum', 'cb', 4, { isCompactSummary: true }),
      user('next', 'sum', 5),
    ]);
    graph.relinkPreserved((graph.get('cb') as LocatedRecord).record);
    const walk = graph.walk(graph.liveLeaf() as LocatedRecord);
    assert.deepEqual(
      walk.records.map((record) => record.record.uuid),
      ['cb', 'sum', 'kept', 'next'],
    );
  });

  it('property: for any parent graph the walk terminates and never repeats a record', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(30), { nil: null }), { minLength: 1, maxLength: 30 }), fc.nat(29), (parents, start) => {
        const records = parents.map((parent, index) => user(`u${index}`, parent === null ? null : `u${parent}`, index));
        const graph = graphOf(records);
        const leaf = graph.get(`u${start % records.length}`) as LocatedRecord;
        const walk = graph.walk(leaf);
        const uuids = walk.records.map((record) => record.record.uuid);
        assert.equal(new Set(uuids).size, uuids.length);
        assert.ok(uuids.length <= records.length);
        assert.equal(uuids.at(-1), leaf.record.uuid);
        graph.liveLeaf();
      }),
    );
  });
});
