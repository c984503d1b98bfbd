import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUNDLED_PRICES, withBroaderSource } from '../../../src/pricing/bundledPrices';
import { canonicalName, findModel, indexPrices, mergePrices, parsePriceOverrides, periodAt, type PriceTable } from '../../../src/pricing/prices';

const index = indexPrices(BUNDLED_PRICES);
const modelOf = (name: string): string | null => findModel(index, name)?.model ?? null;

describe('the bundled price table', () => {
  it('names its source and the date it was taken, and prices every model it lists', () => {
    assert.match(BUNDLED_PRICES.source, /genai-prices/);
    assert.match(BUNDLED_PRICES.taken, /^\d{4}-\d{2}-\d{2}$/);
    for (const entry of BUNDLED_PRICES.models) {
      assert.ok(entry.periods.length > 0, entry.model);
      for (const period of entry.periods) assert.ok(period.input > 0 && period.output > 0, entry.model);
    }
  });

  it('has the models the agents run on: Anthropic, OpenAI and Google', () => {
    for (const model of ['claude-sonnet-4-5', 'claude-opus-4-6', 'claude-haiku-4-5', 'gpt-5', 'gpt-5.1-codex-mini', 'gemini-2.5-pro'])
      assert.notEqual(modelOf(model), null, model);
  });

  it('holds Anthropic list prices: Sonnet 4.5 $3 in, $15 out, $3.75 / $6 cache write (5 min / 1 h), $0.30 read, doubled past 200k', () => {
    const sonnet = periodAt(findModel(index, 'claude-sonnet-4-5')!, '2025-12-01T00:00:00Z');
    assert.deepEqual([sonnet.input, sonnet.output, sonnet.cacheWrite, sonnet.cacheWrite1h, sonnet.cacheRead], [3, 15, 3.75, 6, 0.3]);
    assert.equal(sonnet.longContext?.aboveTokens, 200_000);
    assert.equal(sonnet.longContext?.input, 6);
  });
});

describe('findModel', () => {
  it('finds dated, suffixed and prefixed names of a model', () => {
    assert.equal(modelOf('claude-sonnet-4-5-20250929'), 'claude-sonnet-4-5');
    assert.equal(modelOf('claude-opus-4-6[1m]'), 'claude-opus-4-6');
    assert.equal(modelOf('claude-sonnet-4-5@20250929'), 'claude-sonnet-4-5');
    assert.equal(modelOf('converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0'), 'claude-haiku-4-5');
    assert.equal(modelOf('anthropic/claude-opus-4-5'), 'claude-opus-4-5');
    assert.equal(modelOf('claude-sonnet-4-20250514'), 'claude-sonnet-4-0');
    assert.equal(modelOf('gpt-5-codex'), 'gpt-5');
    assert.equal(modelOf('gpt-5.1-codex-max'), 'gpt-5.1');
    assert.equal(modelOf('GPT-5-2025-08-07'), 'gpt-5');
  });

  it('takes another version for no model: claude-sonnet-5-5 is not claude-sonnet-5, and unknown names have no price', () => {
    assert.equal(modelOf('claude-sonnet-5-5'), null);
    assert.equal(modelOf('glm-4.7'), null);
    assert.equal(modelOf(''), null);
  });

  it('canonicalName keeps the model and drops what varies around it', () => {
    assert.equal(canonicalName('us.anthropic.claude-opus-4-1-20250805-v1:0'), 'claude-opus-4-1-20250805');
    assert.equal(canonicalName('Claude-Opus-4-6[1M]'), 'claude-opus-4-6');
  });
});

describe('periodAt', () => {
  it('takes the prices in force on the call’s day, and the newest without a date', () => {
    const opus = findModel(index, 'claude-opus-4-6')!;
    if (opus.periods.length > 1) {
      const from = opus.periods[1]!.from!;
      assert.equal(periodAt(opus, `${from}T00:00:00Z`), opus.periods[1]);
      assert.equal(periodAt(opus, '2020-01-01T00:00:00Z'), opus.periods[0]);
    }
    assert.equal(periodAt(opus, null), opus.periods.at(-1));
  });
});

describe('your own prices', () => {
  it('adds a model and replaces one, the source saying so', () => {
    const parsed = parsePriceOverrides({ 'claude-sonnet-5-5': { input: 2, output: 10, cacheRead: 0.2 }, 'claude-sonnet-4-5': { input: 1, output: 2 } });
    assert.ok(parsed.ok);
    const merged = indexPrices(mergePrices(BUNDLED_PRICES, parsed.value));
    assert.equal(findModel(merged, 'claude-sonnet-5-5')?.periods[0]?.input, 2);
    assert.equal(findModel(merged, 'claude-sonnet-4-5-20250929')?.periods[0]?.input, 1);
    assert.match(merged.table.source, /\+ 2 of your own/);
    assert.equal(merged.table.models.length, BUNDLED_PRICES.models.length + 1);
  });

  it('says what is wrong with a price file', () => {
    assert.equal(parsePriceOverrides([]).ok, false);
    const missing = parsePriceOverrides({ m: { input: 1 } });
    assert.ok(!missing.ok && /output must be a number/.test(missing.error));
    const negative = parsePriceOverrides({ m: { input: 1, output: 2, cacheRead: -1 } });
    assert.ok(!negative.ok && /cacheRead/.test(negative.error));
  });
});

describe('withBroaderSource: the bundled table with models.dev for the models genai-prices leaves out', () => {
  it('adds what the primary table does not price, keeps the primary price where both do, and names both sources', () => {
    const primary: PriceTable = { source: 'primary 1', taken: '2026-01-01', models: [{ model: 'claude-sonnet-4-5', periods: [{ input: 3, output: 15 }] }] };
    const broader: PriceTable = {
      source: 'models.dev (x 1)',
      taken: '2026-02-02',
      models: [
        { model: 'claude-sonnet-4-5-20250929', periods: [{ input: 99, output: 99 }] },
        { model: 'glm-4.5', periods: [{ input: 0.6, output: 2.2 }] },
      ],
    };
    const table = withBroaderSource(primary, broader);
    const index = indexPrices(table);
    assert.equal(findModel(index, 'claude-sonnet-4-5-20250929')?.periods[0]?.input, 3);
    assert.equal(findModel(index, 'GLM-4.5')?.periods[0]?.input, 0.6);
    assert.equal(`${table.source}, taken ${table.taken}`, 'primary 1, taken 2026-01-01; models.dev (x 1) for other models, taken 2026-02-02');
  });

  it('the shipped table: GLM, DeepSeek and Kimi priced, MiniMax not, Anthropic from genai-prices', () => {
    const index = indexPrices(BUNDLED_PRICES);
    for (const model of ['glm-4.5', 'deepseek-chat', 'kimi-k2-0905-preview']) assert.match(findModel(index, model)?.provider ?? '', /models\.dev/, model);
    assert.equal(findModel(index, 'MiniMax-M2'), null);
    assert.equal(findModel(index, 'claude-opus-4-6')?.provider, 'anthropic');
  });
});

describe('Bedrock geographic profiles', () => {
  it('bill Claude 4.5+ at 10 % over the list price (the published codemie-2.0.64 subagent ran on jp. Haiku 4.5: ccusage 0.0199, we said 0.0181); global. and older models at list', () => {
    const input = (name: string): number | undefined => {
      const entry = findModel(index, name);
      return entry === null ? undefined : periodAt(entry, null).input;
    };
    assert.ok(Math.abs((input('converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0') ?? 0) - 1.1) < 1e-9);
    assert.ok(Math.abs((input('us.anthropic.claude-sonnet-4-5-20250929-v1:0') ?? 0) - 3.3) < 1e-9);
    assert.equal(input('global.anthropic.claude-sonnet-4-5-20250929-v1:0'), 3);
    assert.equal(input('anthropic.claude-haiku-4-5-20251001-v1:0'), 1);
    assert.equal(input('us.anthropic.claude-3-7-sonnet-20250219-v1:0'), 3);
  });
});
