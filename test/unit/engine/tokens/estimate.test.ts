// The table-free estimate only splits what a call measured among the items written beside each
// other, and sizes what no call measured yet: on every transcript the tests know, the shares it
// gives each category stay close to those o200k gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
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

/**
 * The estimate's rule written as runs a regular expression finds: letters (with accented Latin,
 * Greek, Cyrillic), digits, a line break with the indentation after it, spaces, wide characters,
 * ASCII punctuation, each run costing what estimate.ts says.
 */
// eslint-disable-next-line no-control-regex -- control characters count as punctuation there too
const RUNS = /([A-Za-z_\u0080-\u1fff]+)|([0-9]+)|([\n\r][\n\r\t ]*)|([ \t]+)|([\u2000-\uffff]+)|([\x00-\x08\x0b\x0c\x0e-\x1f!-/:-@[-^`{-\x7f]+)/g;
function byRuns(text: string): number {
  let tokens = 0;
  for (const [run, letters, digits, , spaces, wide] of text.matchAll(RUNS)) {
    if (letters !== undefined) tokens += Math.ceil(run.length / 8);
    else if (digits !== undefined) tokens += Math.ceil(run.length / 3);
    else if (spaces !== undefined) tokens += run.length > 1 ? 1 : 0;
    else if (wide !== undefined) tokens += run.length;
    else if (run[0] === '\n' || run[0] === '\r') tokens += 1;
    else tokens += Math.ceil(run.length / 2);
  }
  return tokens;
}

describe('estimateTokens', () => {
  it('is the sum of its runs, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => estimateTokens(text) === byRuns(text)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[ a-zA-Z0-9\n\t\r_.:{}\u00e9\u4e00-]*$/), (text) => estimateTokens(text) === byRuns(text)),
      { numRuns: 2000 },
    );
  });

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
