// What the sessions people published look like to Context Lens (figures, not tests):
// `npm run build && npx tsx bench/corpus.bench.ts [--cli path/to/cli.js]`. For every Claude Code and
// Codex session in the corpus (test/fixtures/*/public and the recordings), through the CLI as a
// person runs it: the head's share of the context and whether it exceeds the first call's prompt
// (impossible: it is part of it), whether a 15 % target is met (or what holds it up), and whether
// a manual compaction of a session over half its window does nothing. `--cli` runs another build
// (an earlier version, for a before/after table).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLiveContext } from '../src/sessions/claude-code/liveContext';
import { readCodexLiveContext } from '../src/sessions/codex';
import { promptTokensOf } from '../src/sessions/common/usage';
import { claudeTranscripts } from '../test/support/claudeFixtures';
import { codexRollouts } from '../test/support/codexFixtures';

const cliArg = process.argv.indexOf('--cli');
const CLI = cliArg > 0 ? (process.argv[cliArg + 1] as string) : join(__dirname, '..', 'dist', 'cli.js');
const archive = mkdtempSync(join(tmpdir(), 'cl-corpus-'));

interface Inspect {
  breakdown: { category: string; tokens: number }[];
  used: { tokens: number };
  window: { tokens: number };
}
interface Compact {
  status: string;
  message?: string;
  metrics: { tokensAfter: number; targetTokens: number; targetMet: boolean };
}

function json<T>(args: string[]): T | null {
  try {
    return JSON.parse(
      execFileSync(process.execPath, [CLI, ...args, '--json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as T;
  } catch {
    return null;
  }
}

async function firstPrompt(path: string, agent: string): Promise<number | null> {
  const live = agent === 'codex' ? await readCodexLiveContext(path) : await readLiveContext(path);
  const call = live.ok ? live.value.calls[0] : undefined;
  return call ? promptTokensOf(call.usage) : null;
}

async function main(): Promise<void> {
  const sessions = [
    ...claudeTranscripts().map((entry) => ({ ...entry, agent: 'claude-code' })),
    ...codexRollouts().map((entry) => ({ ...entry, agent: 'codex' })),
  ];
  console.log(`CLI: ${CLI}`);
  console.log('| session | used | head | head share | head > 1st prompt | 15 % target | manual (over half the window) |');
  console.log('|---|---|---|---|---|---|---|');
  const totals = { sessions: 0, headOver: 0, targets: 0, met: 0, overHalf: 0, noop: 0 };
  for (const session of sessions) {
    const inspect = json<Inspect>(['inspect', session.path, '--agent', session.agent]);
    if (inspect === null) continue;
    totals.sessions += 1;
    const head = inspect.breakdown.filter((row) => ['system', 'tools', 'unrecorded'].includes(row.category)).reduce((sum, row) => sum + row.tokens, 0);
    const total = inspect.breakdown.reduce((sum, row) => sum + row.tokens, 0);
    const first = await firstPrompt(session.path, session.agent);
    const over = first !== null && head > first;
    if (over) totals.headOver += 1;
    let target = '–';
    if (inspect.used.tokens > inspect.window.tokens * 0.15) {
      const compacted = json<Compact>(['compact', session.path, '--agent', session.agent, '--target-percent', '15', '--archive-dir', archive]);
      totals.targets += 1;
      if (compacted?.metrics.targetMet) totals.met += 1;
      target =
        compacted === null
          ? 'failed'
          : compacted.metrics.targetMet
            ? `met (${compacted.metrics.tokensAfter.toLocaleString('en-US')})`
            : `missed: ${compacted.metrics.tokensAfter.toLocaleString('en-US')} > ${compacted.metrics.targetTokens.toLocaleString('en-US')}`;
    }
    let manual = '–';
    if (inspect.used.tokens > inspect.window.tokens / 2) {
      totals.overHalf += 1;
      const compacted = json<Compact>(['compact', session.path, '--agent', session.agent, '--archive-dir', archive]);
      if (compacted?.status === 'noop') totals.noop += 1;
      manual = compacted === null ? 'failed' : compacted.status === 'noop' ? `no-op: ${compacted.message ?? ''}` : compacted.status;
    }
    const share = total > 0 ? ((head / total) * 100).toFixed(1) : '0.0';
    console.log(
      `| ${session.name} | ${inspect.used.tokens.toLocaleString('en-US')} | ${head.toLocaleString('en-US')} | ${share} % | ${over ? `yes (${first?.toLocaleString('en-US')})` : 'no'} | ${target} | ${manual} |`,
    );
  }
  console.log(
    `\n${totals.sessions} sessions: head larger than the first prompt in ${totals.headOver}; 15 % target met in ${totals.met} of ${totals.targets}; manual compaction a no-op in ${totals.noop} of ${totals.overHalf} sessions over half their window.`,
  );
}

void main();
