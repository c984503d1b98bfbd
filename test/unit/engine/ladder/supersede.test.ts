import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { categoryAllowed, fillStubTemplate, findStale, runSupersede, staleResources } from '../../../../src/engine/ladder/supersede';
import { DEFAULT_OPTIONS } from '../../../../src/engine/options';
import { assistant, big, build, call, read, results, user } from '../support/build';
import { ladderState } from './helpers';

const conversation = [
  user('go'),
  ...read('a1', '/src/a.ts', big('a v1', 2_000)),
  ...read('p1', '/src/a.ts', big('a part', 2_000), { offset: 100, limit: 50 }),
  ...read('b1', '/src/b.ts', big('b v1', 2_000)),
  ...read('a2', '/src/a.ts', big('a v2', 2_000)),
  assistant(call('e1', 'Edit', { file_path: '/src/b.ts', old_string: 'x', new_string: 'y' })),
  results({ id: 'e1', output: 'updated' }),
  assistant(call('c1', 'Bash', { command: 'npm run build' })),
  results({ id: 'c1', output: big('build 1', 2_000) }),
  assistant(call('c2', 'Bash', { command: 'npm run build' })),
  results({ id: 'c2', output: big('build 2', 2_000) }),
  user('thanks'),
  assistant('done'),
];

describe('tier 1: superseded tool outputs', () => {
  it('finds stale results by resource and by later writes', () => {
    const context = build(conversation);
    const stale = findStale(context.items, DEFAULT_OPTIONS.supersede);
    const reasons = [...stale].map(([id, staleness]) => [context.items[id]?.text.split('\n')[0], staleness.why.replace(/#\d+/, '#n')]);
    assert.deepEqual(reasons.sort(), [
      ['a v1', 'superseded by #n (same file, newer)'],
      ['b v1', 'superseded by #n (file written later)'],
      ['build 1', 'superseded by #n (same command, newer)'],
    ]);
  });

  it('stubs stale outputs, honouring the default deny list', () => {
    const state = ladderState(build(conversation));
    const report = runSupersede(state);
    const compacted = state.planned.filter((planned) => planned.fate === 'compacted');
    assert.equal(report.acted, 2);
    assert.ok(compacted.every((planned) => planned.text.startsWith('[COMPACTED] Earlier output for /src/')));
    assert.match(compacted[0]?.text ?? '', /\(2,\d+ bytes, ~\d+ tokens\) removed: a newer result/);
    assert.ok(!compacted.some((planned) => planned.item.text.startsWith('build')), 'command outputs are denied by default');
    assert.deepEqual(staleResources(state.planned).sort(), ['Read:/src/a.ts', 'Read:/src/b.ts']);
    assert.equal(state.totalTokens, state.planned.reduce((sum, planned) => sum + planned.tokensAfter, 0));
  });

  it('keeps the newest N per resource and redacts identifiers on request', () => {
    const keepTwo = ladderState(build(conversation), { supersede: { preserveLastNResults: 2, writesSupersedeReads: false } });
    runSupersede(keepTwo);
    assert.equal(keepTwo.planned.filter((planned) => planned.fate === 'compacted').length, 0);
    const redacted = ladderState(build(conversation), { supersede: { redactIdentifiers: true, deniedCategories: [] } });
    runSupersede(redacted);
    const stubs = redacted.planned.filter((planned) => planned.fate === 'compacted').map((planned) => planned.text);
    assert.ok(stubs.some((stub) => stub.includes('/src/***.ts')));
    assert.ok(!stubs.some((stub) => stub.includes('a.ts') || stub.includes('b.ts')));
  });

  it('lets deny win over allow', () => {
    assert.equal(categoryAllowed('file_read', { allowedCategories: ['file_read'], deniedCategories: ['file_read'] }), false);
    assert.equal(categoryAllowed(undefined, { allowedCategories: [], deniedCategories: [] }), true);
    assert.equal(categoryAllowed('search', { allowedCategories: ['file_read'], deniedCategories: [] }), false);
  });

  it('fills every template placeholder', () => {
    assert.equal(fillStubTemplate('{resource}|{bytes}|{size}|{tokens}|{reason}', { resource: 'r', bytes: 2500, tokens: 625, reason: 'why' }), 'r|2,500|2,500|625|why');
  });
});
