import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Region } from '../../../src/protocol/messages';
import { filterRegions, parseFilter } from '../../../webview/logic/filter';

function region(id: number, overrides: Partial<Region> = {}): Region {
  return {
    id,
    turn: 0,
    kind: 'tool_result',
    label: `Read file${id}.ts`,
    tokens: 100,
    tokensAfter: 100,
    fate: 'preserved',
    reason: 'recent',
    tier: null,
    protection: null,
    pinned: false,
    markerCount: 0,
    ...overrides,
  };
}

const regions = [
  region(0, { kind: 'system', label: 'system prompt' }),
  region(1, { fate: 'compacted', reason: 'superseded by #4' }),
  region(2, { fate: 'dropped' }),
  region(3, { kind: 'user', pinned: true, label: 'never modify config/prod.yaml' }),
  region(4, { kind: 'assistant', label: 'Retry decision' }),
];

describe('region filter', () => {
  it('parses kind:, fate: and free words', () => {
    assert.deepEqual(parseFilter(' kind:tool fate:comp Retry  '), { kinds: ['tool'], fates: ['comp'], words: ['retry'] });
  });

  it('filters by kind prefix, fate (pinned included) and text in label or reason', () => {
    assert.deepEqual(filterRegions(regions, ''), [0, 1, 2, 3, 4]);
    assert.deepEqual(filterRegions(regions, 'kind:tool_'), [1, 2]);
    assert.deepEqual(filterRegions(regions, 'fate:dropped'), [2]);
    assert.deepEqual(filterRegions(regions, 'fate:pinned'), [3]);
    assert.deepEqual(filterRegions(regions, 'superseded'), [1]);
    assert.deepEqual(filterRegions(regions, 'retry kind:assistant'), [4]);
    assert.deepEqual(filterRegions(regions, 'PROD.yaml'), [3]);
  });
});
