// `ctxlens compact`: runs the engine on a session's live context and shows (or, with
// --write-session, applies as a new resumable session) the result. The agent's transcript is only
// read; the one file ever written next to it is the fork.
import { FileSystemArchive, StagedArchive } from '../archive/fileArchive';
import { AnthropicSummarizer } from '../summarizers/anthropic';
import { ClaudeCliSummarizer } from '../summarizers/claudeCli';
import { HeuristicSummarizer, compact, redactSecrets, type ArchiveRef, type CompactionResult, type EngineOptionsInput, type Summarizer } from '../engine';
import type { WrittenFork } from '../sessions/port';
import { archiveDirOf } from './archive';
import { AGENT_USAGE, EXIT_INPUT, EXIT_OK, inputError, parse, positiveInt, usageError, writeJson, type Io } from './io';
import { printable } from './format';
import { compactText } from './compactText';
import { LIVE_OPTIONS, loadLive, type Loaded } from './live';
import { contextBefore, redoTargetTokens } from '../sessions/compactionAudit';
import { compactCost, type CompactCost } from '../sessions/costReport';
import { loadPrices, PRICES_OPTION } from './cost';

export const COMPACT_USAGE = `ctxlens compact <file|id> [--focus TEXT] [--target-tokens N | --target-percent N]
                     [--summarizer heuristic|anthropic|claude-cli] [--json] [--write-session]
                     [--keep N[,N…]]… [--drop N[,N…]]… [--archive-dir DIR] [--window N] [--prices FILE]
                     [--redo N|last] ${AGENT_USAGE}
  Compacts the live context and shows the result; nothing is written to the agent's files.
  --keep, --drop    your choices by item number (\`#\` in the panel's map, regions[].id of inspect --json):
                    a kept item stays verbatim, a dropped one goes (with its tool call or result)
  --write-session   apply it as a new session the agent resumes (the command is printed);
                    the pre-compaction context is archived first (redacted, private; see archive prune)
  --redo N|last     redo the agent's own compaction N (1: its first; last: its latest) with Context Lens:
                    compacts the context as it stood before it, to what the agent's compaction left
                    unless a target is given; with --write-session it is written as a new session
  --archive-dir     where the archive is kept (default $XDG_STATE_HOME/context-lens/archive
                    or ~/.local/state/context-lens/archive)
  anthropic reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL); claude-cli runs \`claude -p\`.
  Says whether the compaction pays: the next call writes the kept context to the cache again, every
  call after reads fewer tokens (cost.breakEvenCalls in --json; --prices as for inspect).`;

const OPTIONS = {
  ...LIVE_OPTIONS,
  focus: { type: 'string' },
  'target-tokens': { type: 'string' },
  'target-percent': { type: 'string' },
  summarizer: { type: 'string' },
  'write-session': { type: 'boolean' },
  'archive-dir': { type: 'string' },
  keep: { type: 'string', multiple: true },
  drop: { type: 'string', multiple: true },
  redo: { type: 'string' },
  ...PRICES_OPTION,
} as const;

export async function compactCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, 1);
  // The focus text is stored (fork, archive, summary prompt): a key pasted into it goes no further.
  const focus = values.focus === undefined ? undefined : redactSecrets(values.focus);
  const chosen = engineOptions({ ...values, focus });
  const summarizer = summarizerOf(values.summarizer, io);
  const loaded = await loadLive(positionals[0], values, io);
  const redone = values.redo === undefined ? null : await beforeAgentCompaction(loaded, values.redo);
  // The session is read; the rest is the engine's work and the fork's writing (its own files).
  await loaded.handle.dispose();
  const { live, context, adapter } = redone ?? loaded;
  // Redo compacts to what the agent's own compaction left, unless a target was named.
  const target =
    redone !== null && chosen.targetTokens === undefined && chosen.targetPercent === undefined
      ? { explicitTarget: true, targetTokens: redone.targetTokens }
      : {};
  const options = { ...chosen, ...target, choices: choicesOf(values.keep, values.drop, context.items.length) };
  // Tier 4 only drops what an archive holds; the entry reaches the disk only when the result is applied.
  const archive = new StagedArchive(new FileSystemArchive(archiveDirOf(values['archive-dir'], io)));
  const result = await compact(context, options, { summarizer, archive });
  // Does it pay? The figures are what the next calls would pay at the session's latest call's prices.
  const cost = compactCost(await loadPrices(values.prices, io), live, result.metrics.tokensBefore, result.metrics.tokensAfter);

  let fork: WrittenFork | undefined;
  let archived: ArchiveRef | undefined;
  if (values['write-session'] && result.status === 'compacted') {
    // Archived before the fork that drops anything is written.
    if (result.archive) {
      const committed = await archive.commit(result.archive.id);
      if (!committed.ok) throw inputError(committed.error);
      archived = committed.value;
    }
    // A fork inherits its source's title (pickers say "fork of …"): no suffix piling up over forks of forks.
    const written = await adapter.writeFork({ live, context, result, focus: focus ?? null, title: live.session.title });
    if (!written.ok) throw inputError(written.error.message);
    fork = written.value;
  }
  if (values.json) writeJson(io, { ...report(result, archived, fork), cost: costJson(cost) });
  else
    io.out.write(
      printable(
        `${compactText(result, { context, focus, agentAutoCompactTokens: live.fill.agentAutoCompactTokens, agentName: adapter.name, archived, fork })}\n${costLine(cost, result)}`,
      ),
    );
  if (result.status === 'failed-open') {
    io.err.write(`ctxlens compact: ${printable(result.message, true)}\n`);
    return EXIT_INPUT;
  }
  if (values['write-session'] && fork === undefined) io.err.write(`ctxlens compact: no session written: ${printable(result.message, true)}\n`);
  return EXIT_OK;
}

/** The session as it stood before the agent's own compaction `which` (1-based, or `last`): what Redo compacts. */
async function beforeAgentCompaction(loaded: Loaded, which: string): Promise<Omit<Loaded, 'handle'> & { targetTokens: number }> {
  const own = loaded.live.compactions.filter((event) => event.by === 'agent');
  if (own.length === 0) throw inputError(`--redo: ${loaded.adapter.name} did not compact this session itself`);
  const n = which === 'last' ? own.length : /^\d+$/.test(which) ? Number(which) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw usageError(`--redo needs a compaction number (1 for the first) or 'last', got '${which}'`);
  const event = own[n - 1];
  if (event === undefined) throw inputError(`--redo ${n}: ${loaded.adapter.name} compacted this session ${own.length} time${own.length === 1 ? '' : 's'}`);
  const before = await contextBefore(loaded.adapter, loaded.live, event);
  if (!before.ok) throw inputError(`--redo ${n}: ${before.error.message}`);
  return { live: before.value.live, context: before.value.context, adapter: loaded.adapter, targetTokens: redoTargetTokens(event, before.value.context) };
}

function engineOptions(values: { focus?: string; 'target-tokens'?: string; 'target-percent'?: string }): EngineOptionsInput {
  const targetTokens = positiveInt(values['target-tokens'], '--target-tokens');
  const targetPercent = positiveInt(values['target-percent'], '--target-percent');
  if (targetTokens !== undefined && targetPercent !== undefined) throw usageError('--target-tokens and --target-percent exclude each other');
  if (targetPercent !== undefined && targetPercent >= 100) throw usageError(`--target-percent must be below 100, got ${targetPercent}`);
  return {
    // Asked for by a person: run even when the saving is small, and as far as the ladder goes
    // unless they named a target, then stop as soon as it is met.
    trigger: 'manual',
    explicitTarget: targetTokens !== undefined || targetPercent !== undefined,
    ...(values.focus ? { focus: values.focus } : {}),
    ...(targetTokens !== undefined ? { targetTokens } : {}),
    ...(targetPercent !== undefined ? { targetPercent } : {}),
  };
}

/** `--keep 3 --keep 5,7` → [3, 5, 7]; every number must name an item of this context. */
export function itemIds(values: readonly string[] | undefined, flag: string, count: number): number[] {
  const ids: number[] = [];
  for (const part of (values ?? []).flatMap((value) => value.split(','))) {
    const text = part.trim();
    const id = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(id)) throw usageError(`${flag} needs item numbers (e.g. ${flag} 12 or ${flag} 12,14), got '${part}'`);
    if (id >= count) throw inputError(`${flag} ${id}: this context has items #0–#${count - 1} (see inspect --json, regions[].id)`);
    ids.push(id);
  }
  return ids;
}

function choicesOf(keep: readonly string[] | undefined, drop: readonly string[] | undefined, count: number): { keep: number[]; drop: number[] } {
  const choices = { keep: itemIds(keep, '--keep', count), drop: itemIds(drop, '--drop', count) };
  const both = choices.keep.filter((id) => choices.drop.includes(id));
  if (both.length > 0) throw usageError(`#${both.join(', #')} is both kept and dropped`);
  return choices;
}

function summarizerOf(name: string | undefined, io: Io): Summarizer {
  switch (name ?? 'heuristic') {
    case 'heuristic':
      return new HeuristicSummarizer();
    case 'anthropic': {
      const apiKey = io.env.ANTHROPIC_API_KEY;
      if (!apiKey) throw inputError('--summarizer anthropic needs ANTHROPIC_API_KEY in the environment');
      const baseURL = io.env.ANTHROPIC_BASE_URL;
      return new AnthropicSummarizer({ apiKey, ...(baseURL ? { baseURL } : {}) });
    }
    case 'claude-cli':
      return new ClaudeCliSummarizer();
    default:
      throw usageError(`unknown summarizer '${name ?? ''}' (heuristic, anthropic or claude-cli)`);
  }
}

/** `cost` of --json: the break-even and the figures behind it (US dollars), or why there are none. */
function costJson(cost: CompactCost | null) {
  if (cost === null) return { breakEvenCalls: null, reason: "no price for the session's model" };
  return {
    breakEvenCalls: cost.breakEvenCalls,
    oneOffUsd: cost.oneOffUsd,
    savingPerCallUsd: cost.savingPerCallUsd,
    beforeTokens: cost.beforeTokens,
    afterTokens: cost.afterTokens,
    model: cost.model,
    sentence: cost.sentence,
  };
}

function costLine(cost: CompactCost | null, result: CompactionResult): string {
  if (cost === null || result.status !== 'compacted') return '';
  return `\nAt ${cost.model}'s prices it ${cost.sentence}\n`;
}

function report(result: CompactionResult, archived: ArchiveRef | undefined, fork: WrittenFork | undefined) {
  return {
    status: result.status,
    message: result.message,
    before: { tokens: result.metrics.tokensBefore },
    after: { tokens: result.metrics.tokensAfter },
    savingsPct: result.metrics.savingsPercent,
    regions: result.items.map((item) => ({
      id: item.id,
      kind: item.kind,
      fate: item.fate,
      reason: item.reason,
      tokensBefore: item.tokensBefore,
      tokensAfter: item.tokensAfter,
      tier: item.tier ?? null,
      ...(item.toolName ? { toolName: item.toolName } : {}),
      ...(item.sourceRef ? { sourceRef: item.sourceRef } : {}),
    })),
    tiers: result.tiers,
    escalation: result.escalation,
    floor: result.floor ?? null,
    focusKept: result.focusKept,
    summary: result.summary ?? null,
    messages: result.conversation.messages,
    verification: result.verification ?? null,
    metrics: result.metrics,
    diff: result.diff,
    overflow: result.overflow ?? null,
    /** Written only when applied (--write-session). */
    archive: archived ?? null,
    error: result.error ?? null,
    ...(fork ? { fork } : {}),
  };
}
