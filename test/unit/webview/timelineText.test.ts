import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timelineBars } from '../../../webview/logic/timelineLayout';
import { eventFlag, eventListLine, eventName, pointText } from '../../../webview/logic/timelineText';

const gemini = { name: 'Gemini CLI', pointSetBy: 'settings.json' };

describe('timeline text', () => {
  it('names each kind of event, the agent by its own name', () => {
    assert.equal(eventName('agent', gemini), 'Gemini CLI compacted');
    assert.equal(eventName('ours', gemini), 'Context Lens compacted');
    assert.match(eventName('live', gemini), /Live proxy/);
    assert.deepEqual(eventFlag('agent', gemini), { text: 'Gemini CLI', icon: 'hubot' });
    assert.equal(eventFlag('live', gemini).text, 'Live');
  });

  it('reads out a call with its share of the window, price and cache miss; a compaction point is not a call', () => {
    const bars = timelineBars(
      [
        { at: null, usedTokens: 50_000, event: null, usd: 0.0412, cacheMiss: { cause: 'idle', usd: 0.02, label: 'cache miss after 7 min idle' } },
        { at: null, usedTokens: 12_345, event: { kind: 'ours', label: '50,000 → 12,345 tokens' } },
        { at: null, usedTokens: 13_000, event: null, usd: null },
      ],
      200_000,
    );
    assert.equal(pointText(bars[0]!, 200_000, gemini), 'call 1 · 50,000 tokens (25.0 %) · $0.04 · cache miss after 7 min idle');
    assert.equal(pointText(bars[1]!, 200_000, gemini), 'Context Lens compacted · 50,000 → 12,345 tokens · 12,345 tokens left (6.2 %)');
    assert.equal(pointText(bars[2]!, null, gemini), 'call 2 · 13,000 tokens · no price');
    assert.equal(eventListLine(bars[1]!, gemini), 'Context Lens compacted — 50,000 → 12,345 tokens');
  });
});
