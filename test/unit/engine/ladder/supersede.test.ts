import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { categoryAllowed, fillStubTemplate, findStale, runSupersede, staleResources, stubPattern } from '../../../../src/engine/ladder/supersede';
import { runAgeClear } from '../../../../src/engine/ladder/ageClear';
import { runTruncate, truncateText } from '../../../../src/engine/ladder/truncate';
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
    assert.ok(
      compacted.every(
        (planned) => planned.text.startsWith('[COMPACTED] Earlier Read output for /src/') && planned.text.endsWith(`ref: archive-pending#${planned.item.id}`),
      ),
    );
    assert.match(compacted[0]?.text ?? '', /\(2,\d+ bytes, ~\d+ tokens\) removed: a newer result/);
    assert.ok(!compacted.some((planned) => planned.item.text.startsWith('build')), 'command outputs are denied by default');
    assert.deepEqual(staleResources(state.planned).sort(), ['Read:/src/a.ts', 'Read:/src/b.ts']);
    assert.equal(
      state.totalTokens,
      state.planned.reduce((sum, planned) => sum + planned.tokensAfter, 0),
    );
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
    assert.equal(
      fillStubTemplate('{resource}|{bytes}|{size}|{tokens}|{reason}', { resource: 'r', bytes: 2500, tokens: 625, reason: 'why' }),
      'r|2,500|2,500|625|why',
    );
  });
  it('recognises its own stubs, whatever the template', () => {
    const values = { resource: '/src/a.ts', bytes: 8_000, tokens: 2_000, reason: 'a newer result for this resource exists later (#9)' };
    for (const template of [DEFAULT_OPTIONS.supersede.stubTemplate, '{resource} gone ({size} B, {tokens} tokens): {reason}', '[removed]']) {
      assert.ok(stubPattern(template).test(fillStubTemplate(template, values)), template);
    }
    assert.ok(!stubPattern(DEFAULT_OPTIONS.supersede.stubTemplate).test('const a = 1;'));
  });

  it('leaves the stubs and cuts of an earlier run to tier 4: rewriting them again saves nothing', () => {
    const stub = fillStubTemplate(DEFAULT_OPTIONS.supersede.stubTemplate, {
      resource: '/src/a.ts',
      bytes: 80_000,
      tokens: 20_000,
      reason: 'a newer result for this resource exists later (#9)',
    });
    const cut = truncateText(big('log', 40_000), 8_000, 'head', 2_000).text;
    const state = ladderState(
      build([
        user('go'),
        ...read('a1', '/src/a.ts', stub),
        ...read('a2', '/src/a.ts', big('a v2', 200)),
        ...read('l1', '/log', cut),
        user('ok'),
        assistant('done'),
      ]),
      { ageClear: { keepLastToolUses: 0, clearAtLeastTokens: 0 } },
    );
    assert.deepEqual([runSupersede(state).acted, runAgeClear(state).acted, runTruncate(state).acted], [0, 1, 0]);
    const earlier = state.planned.filter((planned) => planned.compactedEarlier);
    assert.deepEqual(
      earlier.map((planned) => planned.item.text),
      [stub, cut],
    );
    assert.ok(earlier.every((planned) => planned.fate === 'preserved' && planned.reason === 'kept: already compacted by an earlier run'));
  });
});
