// Parents that were never written: Claude Code 2.0's top-level subagent files (`agent-*.jsonl`, every
// record `isSidechain: true`) name, for each tool result, a parent that is not in the file, and a
// trailing `system` line (`turn_duration`) may do the same. The walk bridges such links instead of
// starting the live context there. Transcripts below are written in the 2.0.74 CLI's shapes.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { writeFork } from '../../../../src/sessions/claude-code/fork';
import { RecordGraph } from '../../../../src/sessions/claude-code/chain';
import type { LocatedRecord } from '../../../../src/sessions/claude-code/records';
import type { LiveContext } from '../../../../src/sessions/types';
import { claudeFixtures } from '../../../support/claudeFixtures';
import { tempDir, TranscriptBuilder, type Json } from './builders';

const PARENT_SESSION = 'a751b8dd-6b29-4eed-8cb9-64bc9a916a39';

/** A 2.0.74 subagent: its prompt, `calls` responses each with `perResponse` tool calls whose results name unwritten parents, a final answer. */
function legacyAgent(calls: number, perResponse = 1): TranscriptBuilder {
  const builder = new TranscriptBuilder(PARENT_SESSION, '/Users/user/project', true);
  const envelope: Json = { agentId: 'a62673e', version: '2.0.74' };
  builder.user('Find where retries are configured', envelope);
  for (let call = 1; call <= calls; call++) {
    const ids = Array.from({ length: perResponse }, (_, index) => `toolu_${call}_${index}`);
    builder.assistant(
      `msg_${call}`,
      ids.map((id) => ({ type: 'tool_use', id, name: 'Grep', input: { pattern: id } })),
      { input: 1000 * call, output: 20 },
      'claude-haiku-4-5-20251001',
      envelope,
    );
    for (const id of ids) {
      builder.from(`never-written-${id}`);
      builder.user([{ tool_use_id: id, type: 'tool_result', content: `src/${id}.ts:1: retry` }], {
        ...envelope,
        toolUseResult: { mode: 'content', numFiles: 1 },
      });
    }
  }
  builder.text('msg_final', 'Retries are configured in src/retry.ts.', { input: 9000, output: 30 }, 'claude-haiku-4-5-20251001', envelope);
  return builder;
}

function unpaired(live: LiveContext): string[] {
  const uses = live.entries.flatMap((entry) => entry.toolUseIds);
  const results = live.entries.flatMap((entry) => entry.toolResultIds);
  return [...uses.filter((id) => !results.includes(id)), ...results.filter((id) => !uses.includes(id))];
}

describe('parents that were never written', () => {
  it('a 2.0.74 subagent file: every tool result is bridged to its call, with one info diagnostic', async () => {
    const path = legacyAgent(6).write(tempDir(), 'agent-a62673e.jsonl');
    const read = await readLiveContext(path);
    assert.ok(read.ok);
    const live = read.value;
    assert.equal(live.session.isSidechain, true);
    assert.equal(live.messages.length, 14, 'prompt, 6 × (call, result), answer');
    assert.deepEqual(unpaired(live), []);
    const bridged = live.diagnostics.filter((diagnostic) => diagnostic.code === 'missing-parent-bridged');
    assert.equal(bridged.length, 1);
    assert.equal(bridged[0]?.severity, 'info');
    assert.match(bridged[0]?.message ?? '', /^6 records name parents/);
    assert.deepEqual(
      live.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info'),
      [],
    );
  });

  it('parallel calls whose results all name unwritten parents: every result joins its response', async () => {
    const read = await readLiveContext(legacyAgent(3, 3).write(tempDir(), 'agent-a62673e.jsonl'));
    assert.ok(read.ok);
    assert.deepEqual(unpaired(read.value), []);
    assert.equal(read.value.entries.flatMap((entry) => entry.toolResultIds).length, 9);
    assert.equal(read.value.messages.length, 8, 'prompt, 3 × (response, results), answer');
  });

  it('a turn_duration line naming a missing parent does not cut the chain', async () => {
    const builder = new TranscriptBuilder();
    builder.user('Explain the retry loop');
    builder.text('msg_1', 'It retries three times.', { input: 3000, output: 10 });
    builder.from('never-written');
    builder.record({
      parentUuid: 'never-written',
      isSidechain: false,
      type: 'system',
      subtype: 'turn_duration',
      durationMs: 5000,
      uuid: 'turn-1',
      timestamp: '2026-01-01T00:00:03.500Z',
    });
    builder.from('turn-1');
    builder.user('And the backoff?');
    builder.text('msg_2', 'Exponential.', { input: 3100, output: 12 });
    builder.record({
      parentUuid: 'also-never-written',
      isSidechain: false,
      type: 'system',
      subtype: 'turn_duration',
      durationMs: 4000,
      uuid: 'turn-2',
      timestamp: '2026-01-01T00:00:09.000Z',
    });
    const read = await readLiveContext(builder.write(tempDir()));
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.messages.map((message) => message.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.deepEqual(
      read.value.diagnostics.map(({ code }) => code),
      ['missing-parent-bridged'],
    );
  });

  it('calls whose results were never written (and a result whose call was not) are left out, so the context forks', async () => {
    // As in a real 2.0.75 transcript: the results of a response's calls are missing, the next
    // response names a parent that is not in the file, and a result answers a call that is not there.
    const builder = new TranscriptBuilder();
    builder.user('Analyze the bedrock provider');
    builder.assistant('msg_1', [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'a.ts' } }], { input: 3000, output: 10 });
    builder.toolResult('toolu_read', 'export const a = 1;');
    builder.from('never-written-1');
    builder.user([{ type: 'tool_result', tool_use_id: 'toolu_unknown', content: 'orphan result' }]);
    builder.assistant(
      'msg_2',
      [
        { type: 'tool_use', id: 'toolu_a', name: 'Grep', input: { pattern: 'x' } },
        { type: 'tool_use', id: 'toolu_b', name: 'Glob', input: { pattern: '*' } },
      ],
      { input: 3100, output: 10 },
    );
    builder.record({ type: 'queue-operation', operation: 'enqueue', timestamp: '2026-01-01T00:00:30.000Z', content: 'x' });
    builder.from('never-written-2');
    builder.text('msg_3', 'The provider retries on throttling.', { input: 3300, output: 12 });
    const path = builder.write(tempDir());
    const read = await readLiveContext(path);
    assert.ok(read.ok);
    const live = read.value;
    assert.deepEqual(unpaired(live), []);
    assert.deepEqual(
      live.entries.flatMap((entry) => entry.toolUseIds),
      ['toolu_read'],
    );
    assert.deepEqual(
      live.diagnostics.map(({ code, severity }) => `${severity} ${code}`),
      ['info missing-parent-bridged', 'info unpaired-tool-dropped'],
    );
    assert.match(live.diagnostics[1]?.message ?? '', /^3 records/);
    const fork = await writeFork({
      sourcePath: path,
      summary: 'Looked at the provider.',
      preserveUuids: live.entries.flatMap((entry) => entry.uuids),
      preTokens: 3300,
      postTokens: 100,
    });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
  });

  it('prefers logicalParentUuid, never bridges to a record already on the walk, and stops where nothing precedes', () => {
    const graph = new RecordGraph('t.jsonl');
    const records: Json[] = [
      { type: 'user', uuid: 'a', parentUuid: null, message: { role: 'user', content: 'a' } },
      { type: 'user', uuid: 'b', parentUuid: 'a', message: { role: 'user', content: 'b' } },
      { type: 'user', uuid: 'c', parentUuid: 'gone', logicalParentUuid: 'a', message: { role: 'user', content: 'c' } },
      { type: 'user', uuid: 'd', parentUuid: 'gone-too', message: { role: 'user', content: 'd' } },
    ];
    records.forEach((record, index) => graph.add({ record, line: index + 1, offset: index * 100, end: index * 100 + 99 }));
    const walk = graph.walk(graph.get('d') as LocatedRecord);
    assert.deepEqual(
      walk.records.map(({ record }) => record.uuid),
      ['a', 'c', 'd'],
      'd → c (the record before it), c → a (its logical parent)',
    );
    assert.equal(walk.stop, 'root');
    assert.equal(walk.bridged, 2);
    const lonely = new RecordGraph('t.jsonl');
    lonely.add({ record: { type: 'user', uuid: 'x', parentUuid: 'gone', message: { role: 'user', content: 'x' } }, line: 1, offset: 0, end: 9 });
    const stopped = lonely.walk(lonely.get('x') as LocatedRecord);
    assert.equal(stopped.stop, 'missing-parent');
    assert.equal(stopped.bridged, 0);
  });

  it('every fixture transcript, subagents included: no tool call without its result where the file holds both', async () => {
    const files = claudeFixtures().flatMap((fixture) => agentFiles(fixture.configDir).concat(fixture.transcripts));
    assert.ok(files.some((file) => file.includes('/subagents/')) && files.some((file) => /\/agent-[^/]+\.jsonl$/.test(file) && !file.includes('/subagents/')));
    for (const file of files) {
      const read = await readLiveContext(file);
      assert.ok(read.ok, file);
      const orphans = read.value.diagnostics.filter(
        (diagnostic) => diagnostic.severity !== 'info' && ['orphan-tool-use', 'orphan-tool-result', 'missing-parent'].includes(diagnostic.code),
      );
      assert.deepEqual(orphans, [], file);
    }
  });
});

/** Subagent transcripts of a config folder: `<session>/subagents/agent-*.jsonl` and (2.0) `agent-*.jsonl`. */
function agentFiles(configDir: string): string[] {
  const projects = join(configDir, 'projects');
  return readdirSync(projects).flatMap((project) => {
    const folder = join(projects, project);
    return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      if (entry.isFile() && /^agent-.+\.jsonl$/.test(entry.name)) return [join(folder, entry.name)];
      if (!entry.isDirectory()) return [];
      const subagents = join(folder, entry.name, 'subagents');
      try {
        return readdirSync(subagents)
          .filter((name) => name.endsWith('.jsonl'))
          .map((name) => join(subagents, name));
      } catch {
        return [];
      }
    });
  });
}
