// `npm run eval`: the engine on long sessions recorded with the real Claude Code CLI, scored the way
// a reader resuming from the compacted context would score it (see facts.ts). Compacts each context
// to 15 % of the window with the offline summarizer, then again with a "model" whose summary is two
// words (what the engine must not accept as is), and runs the PreCompact hook on the transcript.
// Prints one table per summarizer and the facts that were lost. `--details` prints every fact.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { compact, MemoryArchive, type CompactionResult, type Summarizer } from '../../src/engine';
import { runHook } from '../../src/cli/hook';
import { SESSIONS, type Session } from './facts';
import { loadSession, type LoadedSession } from './sessions';
import { holds, revokedPresented, scoreFacts, writtenText, type FactScore } from './score';

const TARGET_PERCENT = 15;

/** A summarizer that answers like a model that did not follow the instructions at all. */
const twoWords: Summarizer = { name: 'two-words', summarize: () => Promise.resolve({ ok: true, value: 'Summary done.' }) };

interface Row {
  session: Session;
  loaded: LoadedSession;
  result: CompactionResult;
  facts: FactScore[];
  revoked: string[];
  hook: { live: number; carried: number; revoked: number };
}

async function hookOutput(loaded: LoadedSession): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const state = mkdtempSync(join(tmpdir(), 'cl-eval-hook-'));
  const input = {
    session_id: 'eval',
    transcript_path: loaded.transcript,
    cwd: loaded.cwd,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
    custom_instructions: '',
  };
  try {
    await runHook('pre-compact', JSON.stringify(input), { out, err: new PassThrough(), env: { XDG_STATE_HOME: state } });
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function evaluate(session: Session, loaded: LoadedSession, summarizer?: Summarizer): Promise<Row> {
  const options = { trigger: 'manual' as const, explicitTarget: true, targetPercent: TARGET_PERCENT };
  const result = await compact(loaded.context, options, { archive: new MemoryArchive(), ...(summarizer ? { summarizer } : {}) });
  const hook = await hookOutput(loaded);
  const live = session.facts.filter((fact) => fact.kind === 'constraint' || fact.kind === 'open-loop');
  return {
    session,
    loaded,
    result,
    facts: scoreFacts(session, loaded.context, result),
    revoked: revokedPresented(writtenText(result), session.revoked),
    hook: {
      live: live.length,
      carried: live.filter((fact) => fact.expect.every((pattern) => holds(hook, pattern))).length,
      revoked: revokedPresented(hook, session.revoked).length,
    },
  };
}

const k = (tokens: number): string => `${(tokens / 1000).toFixed(1)}k`;

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function render(title: string, rows: Row[]): string {
  const lines = rows.map((row) => {
    const { metrics } = row.result;
    const compacted = row.facts.filter((score) => score.compacted);
    const reached = compacted.filter((score) => score.reached);
    const cc = row.loaded.claudeCompact;
    return [
      row.session.name,
      k(metrics.tokensBefore),
      k(metrics.targetTokens),
      k(metrics.tokensAfter),
      metrics.targetMet ? 'yes' : 'NO',
      cc ? `${k(cc.preTokens)} → ${k(cc.postTokens)}` : '—',
      `${reached.length}/${compacted.length}`,
      compacted.length === 0 ? '—' : `${Math.round((reached.length / compacted.length) * 100)} %`,
      `${row.facts.filter((score) => score.reached).length}/${row.facts.length}`,
      String(row.revoked.length),
      `${row.hook.carried}/${row.hook.live}`,
      String(row.hook.revoked),
    ];
  });
  const headers = [
    'session',
    'before',
    'target',
    'after',
    'met',
    'Claude /compact',
    'compacted facts kept',
    '%',
    'all facts',
    'revoked shown',
    'hook live',
    'hook revoked',
  ];
  return `${title}\n\n${table(headers, lines)}`;
}

function losses(rows: Row[], all: boolean): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    for (const score of row.facts) {
      if (score.missing) lines.push(`  ${row.session.name}: PLANTING ERROR, source not found: ${score.fact.id}`);
      else if (all || (score.compacted && !score.reached))
        lines.push(`  ${row.session.name}: ${score.compacted ? 'compacted' : 'kept'}, ${score.reached ? 'reached' : 'LOST'}: ${score.fact.id}`);
    }
    for (const line of row.revoked) lines.push(`  ${row.session.name}: revoked rule presented: ${line.trim().slice(0, 120)}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const details = process.argv.includes('--details');
  const loaded = await Promise.all(SESSIONS.map(async (session) => ({ session, loaded: await loadSession(session) })));
  for (const [title, summarizer] of [
    [`Compaction to ${TARGET_PERCENT} % of the window, offline heuristic summarizer`, undefined],
    [`Compaction to ${TARGET_PERCENT} % of the window, a model that answers "Summary done."`, twoWords],
  ] as const) {
    const rows: Row[] = [];
    for (const { session, loaded: input } of loaded) rows.push(await evaluate(session, input, summarizer));
    console.log(render(title, rows));
    const lost = losses(rows, details);
    if (lost.length > 0) console.log(`\n${lost.join('\n')}`);
    console.log('');
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
