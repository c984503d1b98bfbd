// The table-free estimate only splits what a call measured among the items written beside each
// other, and sizes what no call measured yet: on every transcript the tests know, the shares it
// gives each category stay close to those o200k gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { categoryOf } from '../../../../src/engine/model';
import { estimateTokenizer, estimateTokens } from '../../../../src/engine/tokens/estimate';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../../../../src/engine/tokens/tokenizer';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { claudeTranscripts } from '../../../support/claudeFixtures';

/** Largest gap between the two shares of a category, in percentage points of the exact total. */
const MAX_SHARE_GAP_POINTS = 5;

describe('estimateTokens', () => {
  it('counts what a BPE makes one token of', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('hello world'), 2);
    assert.equal(estimateTokens('1234567'), 3);
    assert.equal(estimateTokens('中文字'), 3);
    assert.equal(estimateTokens('a\n    b'), 3);
  });

  it('stays within 15 % of o200k over the recorded transcripts, and close in every category share', async () => {
    // js-tiktoken is the reference BPE (a devDependency): the estimate was calibrated against it.
    const encoder = new Tiktoken(o200kBase);
    const exact: Tokenizer = { name: 'o200k', count: (text) => encoder.encode(text, [], []).length };
    let counted = 0;
    let estimated = 0;
    for (const transcript of claudeTranscripts()) {
      const live = await readLiveContext(transcript.path);
      assert.ok(live.ok, transcript.name);
      const byBpe = engineContextOf(live.value, exact);
      const byEstimate = engineContextOf(live.value, estimateTokenizer);
      for (const item of byBpe.items) {
        if (item.unrecorded) continue;
        counted += exact.count(item.text);
        estimated += estimateTokens(item.text);
      }
      // Shares only mean something against an exact total (without one, both are estimates).
      if (byBpe.usedSource !== 'usage') continue;
      // What the calls measured does not depend on the count; only the pending tail's estimate does.
      assert.equal(byEstimate.measuredTokens, byBpe.measuredTokens, transcript.name);
      const shares = new Map<string, [number, number]>();
      byBpe.items.forEach((item, index) => {
        const [bpe, estimate] = shares.get(categoryOf(item)) ?? [0, 0];
        shares.set(categoryOf(item), [bpe + item.tokens, estimate + (byEstimate.items[index]?.tokens ?? 0)]);
      });
      for (const [category, [bpe, estimate]] of shares) {
        const gap = (Math.abs(bpe - estimate) / byBpe.usedTokens) * 100;
        assert.ok(gap <= MAX_SHARE_GAP_POINTS, `${transcript.name}: ${category} ${bpe} by o200k, ${estimate} by the estimate (${gap.toFixed(1)} points apart)`);
      }
    }
    assert.ok(Math.abs(estimated / counted - 1) <= 0.15, `estimate ${estimated} vs o200k ${counted}`);
  });
});
