import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pickerItems } from '../../../../src/host/sessions/pickerItems';
import type { SessionInfo } from '../../../../src/sessions/types';

const NOW = Date.parse('2026-11-23T12:00:00Z');

function session(id: string, extra: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id,
    agent: 'claude-code',
    path: `/p/${id}.jsonl`,
    projectDir: '/p',
    cwd: '/w',
    title: `Title ${id}`,
    model: 'claude-sonnet-5-5',
    lastActivityMs: NOW - 60_000,
    sizeBytes: 2048,
    isSidechain: false,
    ...extra,
  };
}

describe('pickerItems', () => {
  it('lists subagents right under the session that spawned them, never as a session of their own', () => {
    const items = pickerItems(
      [
        session('agent-1', { isSidechain: true, parentSessionId: 'a', title: 'Explore the parser' }),
        session('b'),
        session('a'),
        session('agent-x', { isSidechain: true, parentSessionId: 'gone' }),
      ],
      NOW,
    );
    assert.deepEqual(
      items.map((item) => item.session.id),
      ['b', 'a', 'agent-1', 'agent-x'],
    );
    assert.match(items[2]?.label ?? '', /^ {4}\$\(type-hierarchy-sub\) Explore the parser$/);
    assert.match(items[2]?.description ?? '', /^subagent of “Title a”/);
    assert.match(items[3]?.description ?? '', /^subagent of gone/);
  });

  it('marks a fork Context Lens wrote, so it never looks like its original', () => {
    const [original, fork] = pickerItems(
      [session('a', { title: 'Fix retries' }), session('f', { title: 'Fix retries', forkOf: { sessionId: 'a', title: 'Fix retries' } })],
      NOW,
    );
    assert.notEqual(original?.label, fork?.label);
    // Fork-ness leads the label: a long title cut short by the picker still shows it.
    assert.equal(fork?.label, '$(repo-forked) Fork · Fix retries');
    assert.equal(original?.label, 'Fix retries');
    assert.equal(fork?.description, 'compacted by Context Lens · Claude Code · claude-sonnet-5-5 · 1 min ago · 2 KB');
    // The second line, the picker's full width, names the original.
    assert.equal(fork?.detail, 'fork of “Fix retries” (a) · /p/f.jsonl');
    const long = pickerItems([session('g', { title: 'x'.repeat(200), forkOf: { sessionId: 'a', title: 'x'.repeat(200) } })], NOW)[0]!;
    assert.ok(long.label.slice(0, 40).includes('Fork'), 'visible in the first 40 characters');
  });

  it('gives each subagent its calls, fill and cost once read, and its session the sum', () => {
    const costs = new Map([
      ['/p/agent-1.jsonl', { calls: 7, tokens: 12_480, usd: 0.1234, unpriced: [] }],
      ['/p/agent-2.jsonl', { calls: 1, tokens: 900, usd: 0, unpriced: ['claude-sonnet-5-5'] }],
    ]);
    const items = pickerItems(
      [session('a'), session('agent-1', { isSidechain: true, parentSessionId: 'a' }), session('agent-2', { isSidechain: true, parentSessionId: 'a' })],
      NOW,
      costs,
    );
    assert.deepEqual(
      items.map((item) => item.session.id),
      ['a', 'agent-1', 'agent-2'],
    );
    // On the second line, first: a long title cuts the first line short.
    assert.equal(items[0]?.detail, '2 subagents $0.12 · /p/a.jsonl');
    assert.match(items[1]?.description ?? '', /^subagent of “Title a” · /);
    assert.equal(items[1]?.detail, '7 calls · fill 12k · $0.12 · /p/agent-1.jsonl');
    assert.equal(items[2]?.detail, '1 call · fill 900 · no price for claude-sonnet-5-5 · /p/agent-2.jsonl');
    // Before the costs are read, the rows say nothing about them.
    assert.deepEqual(
      pickerItems([session('a'), session('agent-1', { isSidechain: true, parentSessionId: 'a' })], NOW).map((item) => item.detail),
      ['/p/a.jsonl', '/p/agent-1.jsonl'],
    );
  });
});
