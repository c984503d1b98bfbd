// What a session cost, through the CLI: pinned totals of published sessions (each within 1 % of
// ccusage 20.0.24's `session --json --offline` on the same files, see bench/ccusage.compare.ts),
// the items' shares adding up, unknown models, your own prices and the break-even of a compaction.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatUsd } from '../../../src/protocol/format';
import { copyScenario, FIXTURES, run } from './support';
import { tempDir } from '../../support/tempDir';

/** A public fixture's main session, copied to a temp folder. */
function publicSession(folder: string, sessionId: string): string {
  const configDir = join(tempDir('cl-cost-'), folder);
  cpSync(join(FIXTURES, 'public', folder), configDir, { recursive: true });
  const projects = join(configDir, 'projects');
  return join(projects, readdirSync(projects)[0] as string, `${sessionId}.jsonl`);
}

interface CostJson {
  cost: {
    session: { usd: number; calls: number; unpriced: { model: string; calls: number }[]; byModel: { model: string; usd: number | null }[] };
    subagents: { id: string; usd: number }[];
    context: { promptUsd: number; unassignedUsd: number };
    calls: { usd: number | null }[];
    byFile: { resource: string; count: number; tokens: number; usd: number }[];
    prices: { source: string; taken: string };
  };
  regions: { id: number; cost: { usd: number } }[];
}

async function inspectJson(path: string, extra: string[] = [], env: Record<string, string> = {}): Promise<CostJson> {
  const result = await run(['inspect', path, '--json', ...extra], env);
  assert.equal(result.code, 0, result.err);
  return JSON.parse(result.out) as CostJson;
}

/** ccusage 20.0.24's totals for these sessions (subagent transcripts included, as it groups them). */
const CCUSAGE = [
  { folder: 'spotter-2.1.39', id: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04', usd: 6.1726, subagents: 2 },
  { folder: 'codemie-2.0.76', id: '624a4a58-b34c-462d-a70d-13421c8125a8', usd: 8.4327, subagents: 0 },
  { folder: 'session-share-2.1.15', id: '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68', usd: 0.3362, subagents: 5 },
  { folder: 'agent-history-2.1.152', id: '06090cb1-3e64-433a-bc7e-a621c0f596d2', usd: 0.0124, subagents: 0 },
];

describe('inspect: what the session cost', () => {
  for (const session of CCUSAGE) {
    it(`${session.folder}: ${formatUsd(session.usd)} as ccusage says, within 1 %; the items' shares add up to the prompts' cost`, async () => {
      const report = await inspectJson(publicSession(session.folder, session.id));
      const { cost } = report;
      assert.ok(Math.abs(cost.session.usd - session.usd) / session.usd < 0.01, `${cost.session.usd} vs ccusage ${session.usd}`);
      assert.equal(cost.subagents.length, session.subagents);
      assert.deepEqual(cost.session.unpriced, []);
      const items = report.regions.reduce((sum, region) => sum + region.cost.usd, 0);
      assert.ok(
        Math.abs(items + cost.context.unassignedUsd - cost.context.promptUsd) < 1e-9,
        `${items} + ${cost.context.unassignedUsd} vs ${cost.context.promptUsd}`,
      );
      assert.ok(cost.calls.every((call) => call.usd !== null && call.usd > 0));
      assert.match(cost.prices.source, /genai-prices/);
    });
  }

  it('groups the reads of a file, and the text names the session cost and the top files', async () => {
    const path = publicSession('spotter-2.1.39', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04');
    const { cost } = await inspectJson(path);
    const top = cost.byFile[0]!;
    assert.ok(top.count >= 1 && top.tokens > 0 && top.usd > 0);
    const text = await run(['inspect', path]);
    assert.match(text.out, /session {2}\$6\.1\d over 221 calls/);
    assert.match(text.out, /TOP FILES BY COST/);
  });

  it('an unknown model shows tokens only and says so; --prices adds it', async () => {
    const copy = copyScenario('multi-prompt');
    const unknown = await inspectJson(copy.transcript);
    assert.equal(unknown.cost.session.usd, 0);
    assert.deepEqual(
      unknown.cost.session.unpriced.map((row) => row.model),
      ['claude-sonnet-5-5'],
    );
    // No call priced: "no price", as the panel says, not "$0.00 over 5 calls".
    const said = (await run(['inspect', copy.transcript])).out;
    assert.match(said, /session {2}no price over \d+ calls: claude-sonnet-5-5 \(tokens only/);
    assert.doesNotMatch(said, /\$0\.00/);
    const prices = join(copy.configDir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ 'claude-sonnet-5-5': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 } }));
    const priced = await inspectJson(copy.transcript, ['--prices', prices]);
    assert.ok(priced.cost.session.usd > 0);
    assert.deepEqual(priced.cost.session.unpriced, []);
    const fromEnv = await inspectJson(copy.transcript, [], { CONTEXT_LENS_PRICES: prices });
    assert.equal(fromEnv.cost.session.usd, priced.cost.session.usd);
    const broken = join(copy.configDir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ m: { input: 'cheap' } }));
    const refused = await run(['inspect', copy.transcript, '--prices', broken]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.err, /input must be a number/);
  });
});

describe('inspect: models of third-party endpoints (the second price source)', () => {
  // Claude Code pointed at GLM's, DeepSeek's or Kimi's Anthropic-compatible endpoint writes their
  // model ids into the same records; the recorded multi-prompt session with its model renamed so.
  const renamed = (model: string): string => {
    const copy = copyScenario('multi-prompt');
    writeFileSync(copy.transcript, readFileSync(copy.transcript, 'utf8').replaceAll('"claude-sonnet-5-5"', JSON.stringify(model)));
    return copy.transcript;
  };

  for (const model of ['glm-4.5', 'deepseek-chat', 'kimi-k2-0905-preview']) {
    it(`${model} is priced from models.dev, and the prices line names both sources with their dates`, async () => {
      const path = renamed(model);
      const { cost } = await inspectJson(path);
      assert.deepEqual(cost.session.unpriced, []);
      assert.ok(cost.session.usd > 0);
      assert.match(cost.prices.source, /genai-prices [\d.]+, taken \d{4}-\d\d-\d\d; models\.dev \(@tokenlens\/models [\d.]+\) for other models/);
      assert.match((await run(['inspect', path])).out, /session {2}\$\d+\.\d+ over \d+ calls/);
    });
  }

  it('a subagent on a model with no price says "no price" in the subagents line, not "$0.00"', async () => {
    const path = publicSession('session-share-2.1.14', '4b2030ed-5563-49ea-b703-6a002f2d3cc8');
    const folder = join(path.replace(/\.jsonl$/, ''), 'subagents');
    for (const name of readdirSync(folder))
      writeFileSync(join(folder, name), readFileSync(join(folder, name), 'utf8').replaceAll('"claude-opus-4-5-20251101"', '"MiniMax-M2"'));
    const text = (await run(['inspect', path])).out;
    assert.match(text, /subagents 1: .* no price\n/);
    assert.doesNotMatch(text, /\$0\.00 of it/);
  });

  it('MiniMax-M2 (in neither source) says "no price", not "$0.00 over N calls"', async () => {
    const path = renamed('MiniMax-M2');
    const { cost } = await inspectJson(path);
    assert.deepEqual(
      cost.session.unpriced.map((row) => row.model),
      ['MiniMax-M2'],
    );
    const text = (await run(['inspect', path])).out;
    assert.match(text, /session {2}no price over \d+ calls: MiniMax-M2/);
    assert.doesNotMatch(text, /\$0\.00 over/);
  });
});

describe('inspect: a Codex session', () => {
  it("prices its calls on the turn's model (cached input as cache reads), and the items add up", async () => {
    const folder = join(FIXTURES, '..', 'codex', 'public', 'codemie-0.125.0');
    const copy = join(tempDir('cl-cost-codex-'), 'home');
    cpSync(folder, copy, { recursive: true });
    const file = join(copy, 'sessions', '2026', '05', '11', 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl');
    const report = await inspectJson(file);
    const { cost } = report;
    assert.deepEqual(
      cost.session.byModel.map((row) => row.model),
      ['gpt-5.5'],
    );
    assert.equal(cost.session.calls, 66);
    assert.ok(cost.session.usd > 0);
    const items = report.regions.reduce((sum, region) => sum + region.cost.usd, 0);
    assert.ok(Math.abs(items + cost.context.unassignedUsd - cost.context.promptUsd) < 1e-9);
    assert.ok(cost.byFile.every((group) => !group.resource.startsWith('tool:')));
  });
});

describe('compact: does it pay?', () => {
  it('--json carries the break-even and its figures; the text says it in one sentence', async () => {
    const path = publicSession('spotter-2.1.39', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04');
    const result = await run(['compact', path, '--json']);
    assert.equal(result.code, 0, result.err);
    const { cost } = JSON.parse(result.out) as {
      cost: { breakEvenCalls: number; oneOffUsd: number; savingPerCallUsd: number; model: string; sentence: string };
    };
    assert.ok(cost.breakEvenCalls >= 1 && cost.oneOffUsd > 0 && cost.savingPerCallUsd > 0);
    assert.equal(cost.breakEvenCalls, Math.ceil(cost.oneOffUsd / cost.savingPerCallUsd - 1e-9));
    assert.equal(cost.model, 'claude-opus-4-6');
    const text = await run(['compact', path]);
    assert.match(text.out, /At claude-opus-4-6's prices it costs \$\d+\.\d\d once, saves \$[\d.]+ per call: pays off after \d+ calls/);
  });
});

describe('formatUsd', () => {
  it('writes dollars with thousands separators, cents, and small amounts to two significant digits', () => {
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(0.41), '$0.41');
    assert.equal(formatUsd(0.0031), '$0.0031');
    assert.equal(formatUsd(0.00031234), '$0.00031');
    assert.equal(formatUsd(12.3), '$12.30');
    assert.equal(formatUsd(1234.56), '$1,235');
    assert.equal(formatUsd(1_234_567), '$1,234,567');
    assert.equal(formatUsd(-0.5), '-$0.50');
    assert.equal(formatUsd(Number.NaN), '$?');
  });
});
