import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { costByResource } from '../../../src/pricing/byResource';

describe('costByResource', () => {
  it('groups every read of a file (any range) with its calls, costliest first', () => {
    const items = [
      { tokens: 5 },
      { resourceKey: 'file:/w/a.ts', toolUseId: 't1', tokens: 10 },
      { resourceKey: 'file:/w/a.ts', toolUseId: 't1', tokens: 1_000 },
      { resourceKey: 'file:/w/a.ts#100+50', toolUseId: 't2', tokens: 500 },
      { resourceKey: 'cmd:npm test', toolUseId: 't3', tokens: 300 },
    ];
    const groups = costByResource(items, [0.5, 0.01, 0.2, 0.1, 0.4]);
    assert.deepEqual(
      groups.map(({ resource, file, count, tokens, items: members }) => ({ resource, file, count, tokens, members })),
      [
        { resource: 'cmd:npm test', file: false, count: 1, tokens: 300, members: [4] },
        { resource: '/w/a.ts', file: true, count: 2, tokens: 1_510, members: [1, 2, 3] },
      ],
    );
    assert.ok(Math.abs((groups[1]?.usd ?? 0) - 0.31) < 1e-12);
  });
});
