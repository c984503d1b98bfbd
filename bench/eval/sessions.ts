// Loading the long recorded sessions the way the CLI does (readLiveContext → engineContextOf), from
// a private copy; `before-compact` cuts the transcript just before Claude Code's own compact_boundary
// so our compaction of that context can be compared with Claude Code's (its preTokens → postTokens).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../src/engine';
import { readLiveContext } from '../../src/sessions/claude-code/liveContext';
import { engineContextOf } from '../../src/sessions/engineContext';
import type { Session } from './facts';

export const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures', 'claude-code');

export interface LoadedSession {
  context: Context;
  /** The transcript read (a cut copy for `before-compact`), for the hooks. */
  transcript: string;
  cwd: string;
  /** Claude Code's own /compact of this context, when the transcript has one right after it. */
  claudeCompact?: { preTokens: number; postTokens: number };
}

interface BoundaryRecord {
  type?: string;
  subtype?: string;
  compactMetadata?: { preTokens?: number; postTokens?: number };
  cwd?: string;
}

/** The copies made, removed when the process exits (the benchmark and the tests that load sessions use them until then). */
const copies: string[] = [];
process.once('exit', () => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

function copyTranscript(fixture: string): { folder: string; transcript: string } {
  const root = mkdtempSync(join(tmpdir(), 'cl-eval-'));
  copies.push(root);
  const folder = join(root, fixture);
  cpSync(join(FIXTURES, fixture), folder, { recursive: true });
  const projects = join(folder, 'projects');
  const [project] = readdirSync(projects);
  if (project === undefined) throw new Error(`${fixture}: no project folder`);
  const name = readdirSync(join(projects, project)).find((entry) => entry.endsWith('.jsonl'));
  if (name === undefined) throw new Error(`${fixture}: no transcript`);
  return { folder, transcript: join(projects, project, name) };
}

export async function loadSession(session: Session): Promise<LoadedSession> {
  const { transcript } = copyTranscript(session.fixture);
  const lines = readFileSync(transcript, 'utf8').split('\n');
  const records = lines.map((line) => (line.trim() === '' ? {} : (JSON.parse(line) as BoundaryRecord)));
  const boundary = records.findIndex((record) => record.type === 'system' && record.subtype === 'compact_boundary');
  let claudeCompact: LoadedSession['claudeCompact'];
  if (session.cut === 'before-compact') {
    if (boundary < 0) throw new Error(`${session.fixture}: no compact_boundary to cut at`);
    writeFileSync(transcript, `${lines.slice(0, boundary).join('\n')}\n`);
    const meta = records[boundary]?.compactMetadata;
    if (meta?.preTokens !== undefined && meta.postTokens !== undefined) claudeCompact = { preTokens: meta.preTokens, postTokens: meta.postTokens };
  }
  const live = await readLiveContext(transcript);
  if (!live.ok) throw new Error(`${session.fixture}: ${live.error.message}`);
  const cwd = records.find((record) => typeof record.cwd === 'string')?.cwd ?? '/home/user';
  return { context: engineContextOf(live.value), transcript, cwd, ...(claudeCompact ? { claudeCompact } : {}) };
}
