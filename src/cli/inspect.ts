// `ctxlens inspect`: how full a session's context is and what fills it.
import { categoryOf, type ItemCategory } from '../engine';
import { AGENT_NAMES, AGENT_USAGE, EXIT_OK, HOMES_USAGE, parse, writeJson, type Io } from './io';
import { gauge, percent, percentOf, printable, table, tokens } from './format';
import { LIVE_OPTIONS, loadLive, type Loaded } from './live';
import type { PriceIndex } from '../pricing';
import { costReport, type CostReport } from '../sessions/costReport';
import { loadPrices, PRICES_OPTION, PRICES_USAGE } from './cost';
import { formatUsd } from '../protocol/format';
import { CATEGORY_NAMES } from '../protocol/categories';
import { regionLabel } from '../protocol/regionLabel';
import { shortPath } from '../base/format';
import { droppedSentence } from '../engine';
import { cacheSentence, missSentence } from '../pricing';
import { auditCompactions } from '../sessions/compactionAudit';

export const INSPECT_USAGE = `ctxlens inspect <file|id> [--json] [--window N] [--prices FILE] ${AGENT_USAGE}
  Shows the live context of a ${AGENT_NAMES} session (a path, or an id from \`ctxlens sessions\`;
  the agent is told by the file unless --agent says it):
  fill, what fills it, the agent's own compactions and any problems found reading it.
  --json also lists every item as regions[] (id, kind, label, tokens): the numbers compact --keep/--drop take.
  Each of the agent's own compactions is audited: the person's rules, decisions and open loops and
  the files changed before it, carried by its summary or kept messages, or dropped (compactions[].audit).
  What it cost: the session's calls (subagents included) at the bundled prices, what carrying each item
  has cost so far (regions[].cost.usd), by file (cost.byFile); cache health: which calls missed the prompt
  cache, why (idle, model, compaction, prefix, unknown) and what each cost beyond a hit (cache.misses).
  ${PRICES_USAGE}
  ${HOMES_USAGE}`;

/** Files named in the text output's cost table. */
const TOP_FILES = 5;
/** Cache misses listed in the text output, the latest. */
const TOP_MISSES = 5;

/** Every kind the engine knows, in the order a person reads a request. */
const CATEGORIES: readonly ItemCategory[] = [
  'system',
  'tools',
  'unrecorded',
  'user',
  'assistant',
  'thinking',
  'tool_use',
  'tool_result',
  'reminder',
  'summary',
];

export async function inspectCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...LIVE_OPTIONS, ...PRICES_OPTION }, 1);
  const prices = await loadPrices(values.prices, io);
  const loaded = await loadLive(positionals[0], values, io);
  try {
    return await inspectLoaded(loaded, prices, values.json === true, io);
  } finally {
    await loaded.handle.dispose();
  }
}

async function inspectLoaded({ live, context, adapter, handle }: Loaded, prices: PriceIndex, json: boolean, io: Io): Promise<number> {
  const cost = await costReport(prices, { readSessionCalls: () => handle.calls() }, live, context);
  // What each of the agent's own compactions carried of what the person had established, and what it dropped.
  const audits = new Map((await auditCompactions(adapter, live, context)).map(({ index, audit }) => [index, audit]));
  const { fill } = live;
  // A fork no call answered yet holds what its compaction counted: nothing the provider measured.
  const forkUnanswered = live.calls.length === 0 && live.compactions.at(-1)?.by === 'context-lens';
  const measured = forkUnanswered ? 0 : (context.measuredTokens ?? (context.usedSource === 'usage' ? fill.usedTokens : 0));
  const pending = context.measuredTokens === undefined ? fill.pendingTokens : context.usedTokens - measured;
  // The fill keeps the model of its last usable reading; a model behind Claude Code that reports
  // all-zero usage (e.g. glm-4.7) has none, while the listing names the newest response's model.
  const model = live.model ?? live.session.model;
  const breakdown = CATEGORIES.map((category) => ({
    category,
    tokens: context.items.reduce((sum, item) => (categoryOf(item) === category ? sum + item.tokens : sum), 0),
  }));
  const report = {
    session: { id: live.session.id, path: live.session.path, agent: live.session.agent, model, title: live.session.title },
    // `request`: the exact body Claude Code recorded; `chain`: rebuilt from the transcript records.
    contextSource: live.source,
    window: { tokens: fill.windowTokens, source: fill.windowSource },
    used: { tokens: fill.usedTokens, source: fill.source, outputTokensPending: fill.outputTokensPending },
    // Written after the last response, so in no usage yet: never added to `used`, which stays exact.
    pending: { tokens: pending, source: 'estimate' },
    // What the next request holds, item by item: `measured` from the calls' usage (the last
    // response's output included), `estimated` what no call measured yet. `breakdown` sums to it.
    context: { tokens: context.usedTokens, measured, estimated: context.usedTokens - measured },
    percent: percentOf(fill.usedTokens, fill.windowTokens),
    agentAutoCompact: { tokens: fill.agentAutoCompactTokens, percent: percentOf(fill.agentAutoCompactTokens, fill.windowTokens) },
    messages: live.messages.length,
    breakdown,
    // Numbered as in the panel's region map: the ids compact --keep/--drop take.
    // `basis`: measured alone, split from a measured step, or estimated (tokens/attribute.ts).
    regions: context.items.map((item) => ({
      id: item.id,
      kind: categoryOf(item),
      label: regionLabel(item, context.workspace),
      tokens: item.tokens,
      basis: item.basis ?? 'estimated',
      ...(item.apiDropped ? { apiDropped: item.apiDropped } : {}),
      ...(item.toolName ? { toolName: item.toolName } : {}),
      cost: { usd: cost.items[item.id] ?? 0 },
    })),
    // US dollars. `session`: every call of the file and its subagents; `context`: carrying the live
    // context since the last compaction (regions' costs + unassignedUsd = promptUsd); `calls`: those calls.
    cost: {
      prices: cost.prices,
      session: cost.session,
      subagents: cost.subagents,
      context: cost.context,
      calls: cost.calls,
      byFile: cost.byFile.map(({ items: _items, file: _file, ...group }) => group),
    },
    // Which calls of the session's own file missed the prompt cache, why, and what each cost beyond a hit (US dollars; null: no price).
    cache: {
      hitRatio: cost.cache.hitRatio,
      calls: cost.cache.calls,
      readTokens: cost.cache.readTokens,
      writtenTokens: cost.cache.writtenTokens,
      misses: cost.cache.misses.map(({ at, cause, rewrittenTokens, usd, gapMs, model }) => ({ at, cause, rewrittenTokens, usd, gapMs, model })),
      usd: cost.cache.usd,
      byCause: cost.cache.byCause,
      sentence: cacheSentence(cost.cache, formatUsd),
    },
    // `audit` (the agent's own compactions): the person's rules, decisions, open loops and the files changed before it, carried or dropped.
    compactions: live.compactions.map((event, index) => (audits.has(index) ? { ...event, audit: audits.get(index) } : event)),
    diagnostics: live.diagnostics,
  };
  if (json) {
    writeJson(io, report);
    return EXIT_OK;
  }
  const lines = [
    `${live.session.title}`,
    `  session  ${live.session.id} (${live.session.agent}, ${model ?? 'no model yet'})`,
    live.session.location === undefined ? `  file     ${live.session.path}` : `  where    ${live.session.location}`,
    `  context  ${live.messages.length} messages, ${live.source === 'request' ? 'exact recorded request' : 'rebuilt from the transcript'}; tokens ${fill.source === 'usage' ? "from the provider's usage" : 'estimated'}, window ${tokens(fill.windowTokens)} (${fill.windowSource})`,
    '',
    gauge(fill.usedTokens, fill.windowTokens, fill.agentAutoCompactTokens, adapter.name),
    '',
    table(
      ['CATEGORY', 'TOKENS', 'SHARE'],
      breakdown
        .filter((row) => row.tokens > 0)
        .map((row) => [CATEGORY_NAMES[row.category], tokens(row.tokens), percent(percentOf(row.tokens, context.usedTokens))]),
      [1, 2],
    ),
  ];
  if (forkUnanswered)
    lines.push(
      `  ${tokens(context.usedTokens)} in the next request: as the compaction that wrote this fork planned it (an estimate until the agent's first call measures it)`,
    );
  else
    lines.push(
      `  ${tokens(context.usedTokens)} in the next request: ${tokens(measured)} measured by the provider's usage${pending > 0 ? `, ~${tokens(pending)} written since the last response (estimate)` : ''}`,
    );
  if (fill.outputTokensPending > 0)
    lines.push(
      `  (the gauge's ${tokens(fill.usedTokens)} is the last request; the ${tokens(fill.outputTokensPending)} output tokens of its response join the next one)`,
    );
  if (live.session.forkOf)
    lines.splice(1, 0, `  fork of  ${live.session.forkOf.title ?? live.session.forkOf.sessionId ?? 'another session'} (written by Context Lens)`);
  lines.push('', ...costLines(cost, context.workspace));
  lines.push('', live.compactions.length === 0 ? 'Compactions: none' : 'Compactions:');
  live.compactions.forEach((event, index) => {
    const counts = `${event.preTokens === null ? '?' : tokens(event.preTokens)} → ${event.postTokens === null ? '?' : tokens(event.postTokens)} tokens`;
    const who = event.by === 'context-lens' ? 'Context Lens' : `agent, ${event.trigger}`;
    lines.push(`  ${event.timestamp ?? 'unknown time'}  ${who}  ${counts}${event.focus ? `  focus: ${event.focus}` : ''}`);
    const audit = audits.get(index);
    if (audit === undefined) return;
    lines.push(`    ${droppedSentence(audit)} (${audit.carried.length} carried)${audit.dropped.length > 0 ? ':' : ''}`);
    for (const entry of audit.dropped) lines.push(`      dropped ${entry.kind}: ${entry.text}`);
  });
  lines.push('', live.diagnostics.length === 0 ? 'Diagnostics: none' : 'Diagnostics:');
  for (const diagnostic of live.diagnostics)
    lines.push(`  ${diagnostic.severity}  ${diagnostic.code}${diagnostic.line ? ` (line ${diagnostic.line})` : ''}: ${diagnostic.message}`);
  io.out.write(printable(`${lines.join('\n')}\n`));
  return EXIT_OK;
}

/** The session's cost, what it leaves out, its subagents and the files that cost most to carry. */
function costLines(cost: CostReport, workspace: string | undefined): string[] {
  const { session } = cost;
  const lines = [`Cost (prices: ${cost.prices.source}, taken ${cost.prices.taken})`];
  // No call has a price (a third-party endpoint's model): "no price", as the panel says, not "$0.00".
  if (session.usd === 0 && session.unpriced.length > 0) {
    lines.push(
      `  session  no price over ${tokens(session.calls)} calls: ${session.unpriced.map((row) => row.model).join(', ')} (tokens only; --prices FILE adds yours)`,
    );
    return lines;
  }
  lines.push(
    `  session  ${formatUsd(session.usd)} over ${tokens(session.calls)} calls: prompts ${formatUsd(session.promptUsd)}, output ${formatUsd(session.outputUsd)}`,
  );
  for (const row of session.unpriced) lines.push(`  no price for ${row.model} (${tokens(row.calls)} calls): tokens only`);
  if (cost.subagents.length > 0) {
    const usd = cost.subagents.reduce((sum, agent) => sum + agent.usd, 0);
    const each = cost.subagents
      .map((agent) => `${clip(agent.title)} ${agent.usd === 0 && agent.unpriced.length > 0 ? 'no price' : formatUsd(agent.usd)}`)
      .join(', ');
    lines.push(
      `  subagents ${cost.subagents.length}${usd === 0 && cost.subagents.some((agent) => agent.unpriced.length > 0) ? '' : `, ${formatUsd(usd)} of it`}: ${each}`,
    );
  }
  lines.push(`  ${cacheSentence(cost.cache, formatUsd)}`);
  for (const miss of cost.cache.misses.slice(-TOP_MISSES)) lines.push(`    ${miss.at ?? 'unknown time'}  ${missSentence(miss, formatUsd)}`);
  if (cost.cache.misses.length > TOP_MISSES) lines.push(`    (the latest ${TOP_MISSES} of ${cost.cache.misses.length}: --json lists them all)`);
  lines.push(`  context  carrying it has cost ${formatUsd(cost.context.promptUsd)} over ${tokens(cost.calls.length)} calls since it began`);
  const files = cost.byFile.filter((group) => group.usd > 0).slice(0, TOP_FILES);
  if (files.length > 0) {
    lines.push(
      '',
      table(
        ['TOP FILES BY COST', 'CALLS', 'TOKENS NOW', 'COST SO FAR'],
        files.map((group) => [shortPath(group.resource, workspace), String(group.count), tokens(group.tokens), formatUsd(group.usd)]),
        [1, 2, 3],
      ),
    );
  }
  return lines;
}

const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 39)}…` : text);
