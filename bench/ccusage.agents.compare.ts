// Our session totals beside ccusage's for Codex CLI and Gemini CLI sessions (the published ones in
// test/fixtures/<agent>/public|published and the recorded ones): `npx tsx
// bench/ccusage.agents.compare.ts` with CCUSAGE naming ccusage's native bin (see ccusage.compare.ts);
// OpenCode's recorded databases too.
// Each fixture folder is handed to ccusage alone (CODEX_HOME / GEMINI_DATA_DIR laid out as it reads
// them) and its sessions' totals compared with ours. Prints agent, session, ours, ccusage, Δ %.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_PRICES, indexPrices, sessionCost } from '../src/pricing';
import { codexAdapter } from '../src/sessions/codex/adapter';
import { geminiAdapter } from '../src/sessions/gemini/adapter';
import { opencodeAdapter } from '../src/sessions/opencode/adapter';
import type { AgentAdapter } from '../src/sessions/port';

const FIXTURES = join(__dirname, '..', 'test', 'fixtures');
const TOLERANCE = 0.01;
const index = indexPrices(BUNDLED_PRICES);

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, suffix) : name.endsWith(suffix) ? [path] : [];
  });
}

async function ours(adapter: AgentAdapter, path: string): Promise<number | null> {
  const info = await adapter.readSessionInfo(path);
  if (!info.ok) return null;
  const read = await adapter.readSessionCalls(info.value);
  if (!read.ok) return null;
  const { total } = sessionCost(index, [...read.value.calls, ...read.value.subagents.flatMap((agent) => agent.calls)]);
  return total.unpriced.length > 0 && total.usd === 0 ? null : total.usd;
}

function ccusage(bin: string, args: string[], env: Record<string, string>): { sessionId?: string; session?: string; costUSD?: number; totalCost?: number }[] {
  const run = spawnSync(bin, [...args, 'session', '--json', '--offline'], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) return [];
  const parsed = JSON.parse(run.stdout) as { sessions?: unknown[]; session?: unknown[] };
  return (parsed.sessions ?? parsed.session ?? []) as never;
}

async function main(): Promise<void> {
  const bin = process.env.CCUSAGE;
  if (bin === undefined) throw new Error("CCUSAGE must name ccusage's native bin");
  const rows: string[][] = [['AGENT', 'FIXTURE', 'OURS', 'CCUSAGE', 'Δ %', '']];
  const push = (agent: string, name: string, a: number | null, b: number | null): void => {
    const delta = a !== null && b !== null && b > 0 ? ((a - b) / b) * 100 : null;
    const flag = delta !== null ? (Math.abs(delta) > TOLERANCE * 100 ? 'MISSES' : 'ok') : a === null ? 'no price (ours)' : 'no price (ccusage)';
    rows.push([agent, name, a === null ? '–' : a.toFixed(4), b === null ? '–' : b.toFixed(4), delta === null ? '' : delta.toFixed(2), flag]);
  };
  // Codex: each fixture folder is a CODEX_HOME (sessions/YYYY/MM/DD/rollout-*.jsonl).
  for (const group of ['public', 'recorded']) {
    const base = join(FIXTURES, 'codex', group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const home = join(base, name);
      if (!existsSync(join(home, 'sessions'))) continue;
      const theirs = ccusage(bin, ['codex'], { CODEX_HOME: home });
      const total = theirs.reduce((sum, session) => sum + (session.costUSD ?? session.totalCost ?? 0), 0);
      let mine = 0;
      let priced = false;
      for (const file of files(join(home, 'sessions'), '.jsonl')) {
        const usd = await ours(codexAdapter, file);
        if (usd !== null) {
          mine += usd;
          priced = true;
        }
      }
      push('codex', `${group}/${name}`, priced ? mine : null, theirs.length > 0 ? total : null);
    }
  }
  // Gemini: each chat file laid out as GEMINI_DATA_DIR/tmp/<project>/chats/session-*.json.
  for (const group of ['published', 'recorded']) {
    const base = join(FIXTURES, 'gemini', group);
    if (!existsSync(base)) continue;
    for (const file of files(base, '.json').concat(files(base, '.jsonl'))) {
      // Chats only: the recorded folders also hold the CLI's settings and the requests it sent.
      if (!file.includes('/chats/') && group === 'recorded') continue;
      const data = mkdtempSync(join(tmpdir(), 'cl-ccu-gemini-'));
      const chats = join(data, 'tmp', 'project', 'chats');
      mkdirSync(chats, { recursive: true });
      const copy = join(
        chats,
        `session-${
          file
            .split('/')
            .at(-1)
            ?.replace(/^session-/, '') ?? 'x.json'
        }`,
      );
      cpSync(file, copy);
      const theirs = ccusage(bin, ['gemini'], { GEMINI_DATA_DIR: data });
      const total = theirs.reduce((sum, session) => sum + (session.costUSD ?? session.totalCost ?? 0), 0);
      push('gemini', file.slice(base.length + 1), await ours(geminiAdapter, copy), theirs.length > 0 ? total : null);
      rmSync(data, { recursive: true, force: true });
    }
  }
  // OpenCode: each recorded database as OPENCODE_DATA_DIR/opencode.db.
  const dbs = join(FIXTURES, 'opencode', 'recorded');
  for (const name of existsSync(dbs) ? readdirSync(dbs).filter((file) => file.endsWith('.db.gz')) : []) {
    const data = mkdtempSync(join(tmpdir(), 'cl-ccu-opencode-'));
    writeFileSync(join(data, 'opencode.db'), gunzipSync(readFileSync(join(dbs, name))));
    const theirs = ccusage(bin, ['opencode'], { OPENCODE_DATA_DIR: data });
    const listed = await opencodeAdapter.listSessions({ env: { ...process.env, OPENCODE_DATA_DIR: data, XDG_DATA_HOME: data } });
    let mine = 0;
    for (const session of listed.ok ? listed.value : []) {
      if (session.isSidechain) continue;
      mine += (await ours(opencodeAdapter, session.path)) ?? 0;
    }
    push('opencode', name, mine, theirs.length > 0 ? theirs.reduce((sum, session) => sum + (session.costUSD ?? session.totalCost ?? 0), 0) : null);
    rmSync(data, { recursive: true, force: true });
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
