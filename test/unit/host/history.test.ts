import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentCompactionsOf, appended, historyOf, OURS_PER_SESSION, timelineMarksOf, type OurCompaction } from '../../../src/host/history/history';
import { TIMELINE_MAX_POINTS, timelineOf } from '../../../src/host/context/timeline';
import { claudeCodeAdapter } from '../../../src/sessions/claude-code/adapter';
import { UsageLog } from '../../../src/sessions/claude-code/usageLog';
import type { CompactionEvent } from '../../../src/sessions/types';
import { tempDir } from '../../support/tempDir';

const agent: CompactionEvent = {
  uuid: 'b1',
  by: 'agent',
  timestamp: '2025-05-01T10:00:00Z',
  trigger: 'auto',
  preTokens: 167_000,
  postTokens: 31_000,
  focus: null,
  summary: 'S',
};
const ours: OurCompaction = {
  id: 'o1',
  at: '2025-05-01T11:00:00Z',
  focus: 'retry',
  beforeTokens: 96_000,
  afterTokens: 41_000,
  savingsPct: 57.3,
  summary: null,
  verification: null,
  fork: { sessionId: 'f', path: '/p/f.jsonl', resumeCommand: 'claude --resume f' },
};

function response(uuid: string, id: string, tokens: number, at: string): string {
  return `${JSON.stringify({ type: 'assistant', uuid, timestamp: at, message: { id, model: 'claude-x', role: 'assistant', content: [], usage: { input_tokens: tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 } } })}\n`;
}

describe('history and timeline', () => {
  it('lists the agent compactions and ours by time, ours once even when the fork reports its boundary', () => {
    const ourBoundary: CompactionEvent = { ...agent, uuid: 'b2', timestamp: ours.at, preTokens: 96_000, postTokens: 41_000, trigger: 'manual' };
    const hooks = { preCompact: { constraints: 2, openLoops: 1, workspaceFocus: null, error: null }, sessionStart: null };
    const entries = historyOf(
      [agent, ourBoundary],
      [ours],
      new Map([
        ['b1', hooks],
        ['b2', hooks],
      ]),
    );
    assert.deepEqual(
      entries.map((entry) => [entry.source, entry.id]),
      [
        ['agent', 'b1'],
        ['contextLens', 'o1'],
      ],
    );
    assert.deepEqual(
      entries.map((entry) => entry.hooks),
      [hooks, null],
    );
    assert.ok(Math.abs((entries[0]?.savingsPct ?? 0) - 81.4) < 0.1);
    assert.equal(entries[1]?.fork?.resumeCommand, 'claude --resume f');
  });

  it('keeps the newest 100 of ours per session', () => {
    let list: OurCompaction[] = [];
    for (let index = 0; index < OURS_PER_SESSION + 5; index++) list = appended(list, { ...ours, id: String(index) });
    assert.equal(list.length, OURS_PER_SESSION);
    assert.equal(list[0]?.id, '5');
  });

  it('reads usage incrementally and makes one point per response of the live chain plus compaction events', async () => {
    const path = join(tempDir('cl-timeline-'), 's.jsonl');
    writeFileSync(path, response('a1', 'm1', 100, '2025-05-01T10:30:00Z') + response('a1b', 'm1', 100, '2025-05-01T10:30:00Z'));
    const log = new UsageLog(path);
    await log.update();
    appendFileSync(path, response('a2', 'm2', 300, '2025-05-01T10:40:00Z') + response('gone', 'm3', 999, '2025-05-01T10:41:00Z'));
    await log.update();
    const live = { entries: [{ uuids: ['a1', 'a1b'] }, { uuids: ['u1'] }, { uuids: ['a2'] }] } as Parameters<typeof timelineOf>[0];
    // Session f is the fork our entry wrote, and its file holds no boundary of ours: the entry marks it.
    const points = timelineOf(live, (uuid) => log.get(uuid), [agent], timelineMarksOf([ours], 'f', [agent]));
    assert.deepEqual(
      points.map((point) => [point.usedTokens, point.event?.kind ?? null]),
      [
        [31_000, 'agent'],
        [100, null],
        [300, null],
        [41_000, 'ours'],
      ],
    );
    // What happened, in the panel's number format; who did it is the panel's to say.
    assert.equal(points[0]?.event?.label, 'by itself, 167,000 → 31,000 tokens');
    assert.equal(points[3]?.event?.label, '96,000 → 41,000 tokens, "retry"');
    assert.ok(TIMELINE_MAX_POINTS === 5_000);
  });

  it('marks our compaction once on the fork, and not at all on the original it was stored under too', () => {
    const live = { entries: [] } as Parameters<typeof timelineOf>[0];
    // The fork's file opens with our boundary (same counts as the stored entry): one mark, from the file.
    const boundary: CompactionEvent = {
      ...agent,
      uuid: 'b2',
      by: 'context-lens',
      timestamp: ours.at,
      trigger: 'manual',
      preTokens: 96_000,
      postTokens: 41_000,
      focus: 'retry',
    };
    const onFork = timelineOf(live, () => undefined, [boundary], timelineMarksOf([ours], 'f', [boundary]));
    assert.deepEqual(
      onFork.map((point) => point.event?.kind),
      ['ours'],
    );
    // The original's calls go on unchanged: the fork is not one of them.
    assert.deepEqual(timelineMarksOf([ours], 's', []), []);
    assert.deepEqual(timelineMarksOf([ours], null, []), []);
  });
});

describe('agentCompactionsOf', () => {
  it('lists the compactions already in the file and those seen since, once each, oldest first', () => {
    const later: CompactionEvent = { ...agent, uuid: 'b2', timestamp: '2025-05-01T12:00:00Z' };
    const earlier: CompactionEvent = { ...agent, uuid: 'b0', timestamp: '2025-05-01T09:00:00Z' };
    assert.deepEqual(
      agentCompactionsOf([earlier, agent], [agent, later]).map((event) => event.uuid),
      ['b0', 'b1', 'b2'],
    );
    assert.deepEqual(agentCompactionsOf([], [later]), [later]);
  });
});

describe('historyOf and forks', () => {
  it('names the forks found beside the session, once, and labels a fork boundary as ours', () => {
    const fork = {
      id: 'f1',
      agent: 'claude-code' as const,
      path: '/p/f1.jsonl',
      projectDir: '/p',
      cwd: null,
      title: 'T',
      model: null,
      lastActivityMs: Date.parse('2025-05-01T12:00:00Z'),
      sizeBytes: 10,
      isSidechain: false,
      forkOf: { sessionId: 's', title: 'T' },
    };
    const entries = historyOf([{ ...agent, uuid: 'b2', by: 'context-lens' }], [], new Map(), { forks: [fork], adapter: claudeCodeAdapter });
    assert.deepEqual(
      entries.map((entry) => [entry.source, entry.trigger]),
      [
        ['contextLens', 'auto'],
        ['contextLens', 'fork'],
      ],
    );
    assert.equal(entries[1]?.fork?.resumeCommand, 'claude --resume f1');
    // Applied from this window: the stored entry already names it.
    assert.equal(
      historyOf([], [{ ...ours, fork: { sessionId: 'f1', path: '/p/f1.jsonl', resumeCommand: 'claude --resume f1' } }], new Map(), {
        forks: [fork],
        adapter: claudeCodeAdapter,
      }).length,
      1,
    );
  });
});
