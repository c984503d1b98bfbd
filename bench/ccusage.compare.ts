// Our session totals beside ccusage's on the Claude Code corpus (the published sessions in
// test/fixtures/claude-code/public/ and the recorded ones), model by model: `npx tsx
// bench/ccusage.compare.ts` with CCUSAGE naming ccusage's bin (its native build, run with --offline:
// not a dependency of ours). Every fixture folder is a config folder; ccusage reads them all at once
// through CLAUDE_CONFIG_DIR and groups each session with its `subagents/` transcripts, as we do; a
// 2.0.x sidechain file beside a session is a session of its own to ccusage and part of its parent to
// us, so its figures are added to the parent's for the comparison.
// Prints session, model, ours, ccusage and the difference; a known model more than 1 % off is flagged.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { indexPrices, BUNDLED_PRICES, sessionCost } from '../src/pricing';
import { claudeCodeAdapter } from '../src/sessions/claude-code/adapter';

const FIXTURES = join(__dirname, '..', 'test', 'fixtures', 'claude-code');
const TOLERANCE = 0.01;

interface CcusageSession {
  period: string;
  modelBreakdowns: { modelName: string; cost: number }[];
}

/** Fixture folders that are Claude Code config folders (have `projects/`). */
function configDirs(): string[] {
  const folders = [
    ...readdirSync(join(FIXTURES, 'public')).map((name) => join(FIXTURES, 'public', name)),
    ...readdirSync(FIXTURES).map((name) => join(FIXTURES, name)),
  ];
  return folders.filter((folder) => existsSync(join(folder, 'projects')));
}

/** Session files of one config folder: top-level `.jsonl` of each project (legacy agent files are sessions to ccusage too). */
function sessionFiles(config: string): string[] {
  const projects = join(config, 'projects');
  return readdirSync(projects).flatMap((project) =>
    readdirSync(join(projects, project))
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => join(projects, project, name)),
  );
}

/** Our cost by model, and the 2.0.x sidechain files beside the session we counted in it (ccusage lists each as a session of its own). */
async function ours(path: string): Promise<{ byModel: Map<string, number | null>; besides: string[] }> {
  const index = indexPrices(BUNDLED_PRICES);
  const info = await claudeCodeAdapter.readSessionInfo(path);
  if (!info.ok) return { byModel: new Map(), besides: [] };
  const read = await claudeCodeAdapter.readSessionCalls(info.value);
  if (!read.ok) return { byModel: new Map(), besides: [] };
  const { total } = sessionCost(index, [...read.value.calls, ...read.value.subagents.flatMap((agent) => agent.calls)]);
  const besides = read.value.subagents
    .filter((agent) => agent.session.projectDir === info.value.projectDir && !agent.session.path.includes('/subagents/'))
    .map((agent) => agent.session.id);
  return { byModel: new Map(total.byModel.map((row) => [row.model, row.usd])), besides };
}

/** ccusage's figures for `id` with those of the sidechain files we count in it added. */
function theirsOf(theirs: ReadonlyMap<string, ReadonlyMap<string, number>>, id: string, besides: readonly string[]): Map<string, number> {
  const summed = new Map(theirs.get(id) ?? []);
  for (const agent of besides) for (const [model, cost] of theirs.get(agent) ?? []) summed.set(model, (summed.get(model) ?? 0) + cost);
  return summed;
}

async function main(): Promise<void> {
  const bin = process.env.CCUSAGE;
  if (bin === undefined) throw new Error("CCUSAGE must name ccusage's bin (e.g. /tmp/ccu/node_modules/.bin/ccusage after `npm install ccusage` there)");
  const dirs = configDirs();
  const run = spawnSync(bin, ['session', '--json', '--offline'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: dirs.join(',') },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`ccusage failed (${run.status}): ${run.stderr}`);
  const theirs = new Map<string, Map<string, number>>();
  for (const session of (JSON.parse(run.stdout) as { session: CcusageSession[] }).session)
    theirs.set(session.period, new Map(session.modelBreakdowns.map((row) => [row.modelName, row.cost])));
  const rows: string[][] = [['SESSION', 'MODEL', 'OURS', 'CCUSAGE', 'Δ %', '']];
  for (const path of dirs.flatMap(sessionFiles).sort()) {
    const id = (path.split('/').at(-1) as string).replace(/\.jsonl$/, '');
    const { byModel: mine, besides } = await ours(path);
    const other = theirsOf(theirs, id, besides);
    for (const model of new Set([...mine.keys(), ...other.keys()])) {
      const a = mine.get(model) ?? null;
      const b = other.get(model) ?? null;
      const both = a !== null && b !== null && b > 0;
      const delta = both ? ((a - b) / b) * 100 : null;
      const flag =
        delta !== null && Math.abs(delta) > TOLERANCE * 100 ? 'MISSES' : a === null ? 'no price (ours)' : b === null || b === 0 ? 'no price (ccusage)' : 'ok';
      rows.push([id.slice(0, 14), model, a === null ? '–' : a.toFixed(4), b === null ? '–' : b.toFixed(4), delta === null ? '' : delta.toFixed(2), flag]);
    }
  }
  const widths = (rows[0] as string[]).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => (column >= 2 && column <= 4 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    );
}

void main();
