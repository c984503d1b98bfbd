// The bundled demo session (recorded with the real Claude Code CLI) laid out in a private Claude
// configuration folder, and ways to make the "agent" write more to it during a test.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDemoClaudeConfig } from '../../scripts/demoSession';
import { encodeProjectDirName } from '../../src/sessions/claude-code/paths';
import { tempDir } from './tempDir';

export const DEMO_WORKSPACE = join(__dirname, '..', '..', 'samples', 'demo-workspace');
/** The demo's transcript as committed (read-only: copy it to write to it). */
export const DEMO_SESSION = join(
  __dirname,
  '..',
  'fixtures',
  'claude-code',
  'demo',
  'projects',
  '-home-user-payments-demo',
  '1184e54e-cc88-4ddf-ba37-ec450f40e74c.jsonl',
);

interface TranscriptRecord {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
  message?: Record<string, unknown>;
}

export interface DemoSession {
  readonly claudeConfigDir: string;
  readonly projectDir: string;
  readonly transcript: string;
}

/** The demo transcript in a fresh config folder, as if recorded in `workspace`. */
export function prepareDemoSession(workspace = DEMO_WORKSPACE): DemoSession {
  const claudeConfigDir = prepareDemoClaudeConfig(workspace, tempDir('context-lens-demo-claude-'));
  const projectDir = join(claudeConfigDir, 'projects', encodeProjectDirName(workspace));
  const name = readdirSync(projectDir).find((entry) => entry.endsWith('.jsonl'));
  assert.ok(name, `no demo transcript in ${projectDir}`);
  return { claudeConfigDir, projectDir, transcript: join(projectDir, name) };
}

function lastRecord(path: string, type: string): TranscriptRecord {
  const records = readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptRecord);
  const found = records.reverse().find((record) => record.type === type);
  assert.ok(found, `no ${type} record in ${path}`);
  return found;
}

let appended = 0;
const nextUuid = () => `0e2e0e2e-0000-4000-8000-${String(++appended).padStart(12, '0')}`;

/** A further response from the agent, chained after `parentUuid`: the last assistant record again, with more context used. */
function responseRecord(path: string, cacheReadInputTokens: number, parentUuid: string | undefined, content?: unknown[]): TranscriptRecord & { uuid: string } {
  const last = lastRecord(path, 'assistant');
  const uuid = nextUuid();
  const message = {
    ...last.message,
    id: `msg_e2e_${appended}`,
    usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: cacheReadInputTokens, output_tokens: 20 },
    ...(content ? { content } : {}),
  };
  return { ...last, uuid, parentUuid: parentUuid ?? last.uuid ?? null, timestamp: new Date().toISOString(), message } as TranscriptRecord & { uuid: string };
}

/** The uuid of the transcript's newest record: the next one chains after it. */
const tailUuid = (path: string): string | undefined =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptRecord)
    .filter((record) => record.uuid)
    .at(-1)?.uuid;

/** A further response from the agent: the last assistant record again, with more context used. */
export function appendResponse(path: string, cacheReadInputTokens: number, content?: unknown[]): string {
  const record = responseRecord(path, cacheReadInputTokens, tailUuid(path), content);
  appendFileSync(path, `${JSON.stringify(record)}\n`);
  return record.uuid;
}

/**
 * A tool call and its (hostile) result, as the agent would record them, with the usage the API
 * would report: each prompt holds the one before, its response and what was written since (items
 * are sized from those differences, so a prompt that shrank would read as the API dropping content).
 * Written in one go: a reader of the file never sees a call without its result.
 */
export function appendToolRound(path: string, output: string): void {
  const id = `toolu_e2e_${appended + 1}`;
  const usage = (lastRecord(path, 'assistant').message?.usage ?? {}) as Record<string, number | undefined>;
  const previous = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.output_tokens ?? 0);
  // A response adds 10 uncached input tokens to the cache read it is given.
  const cacheReadInputTokens = previous;
  const call = responseRecord(path, cacheReadInputTokens, tailUuid(path), [{ type: 'tool_use', id, name: 'Bash', input: { command: 'cat untrusted.html' } }]);
  const result = {
    ...lastRecord(path, 'user'),
    uuid: nextUuid(),
    parentUuid: call.uuid,
    timestamp: new Date().toISOString(),
    isMeta: undefined,
    isCompactSummary: undefined,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: false }] },
    toolUseResult: { stdout: output, stderr: '', interrupted: false },
  };
  const answer = responseRecord(path, cacheReadInputTokens + 200, result.uuid, [{ type: 'text', text: 'That file is untrusted HTML; I will not render it.' }]);
  appendFileSync(path, [call, result, answer].map((record) => `${JSON.stringify(record)}\n`).join(''));
}

/**
 * Claude Code's own /compact, as it records one: a boundary that starts a new chain, the summary as
 * a compact-summary user record, then the next response with the smaller context's usage.
 */
export function appendCompaction(path: string, summary: string, preTokens: number, postTokens: number): void {
  const user = lastRecord(path, 'user');
  const boundaryUuid = nextUuid();
  const at = new Date().toISOString();
  const boundary = {
    ...lastRecord(path, 'system'),
    parentUuid: null,
    uuid: boundaryUuid,
    timestamp: at,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'manual', preTokens, postTokens },
  };
  const summaryRecord = {
    ...user,
    uuid: nextUuid(),
    parentUuid: boundaryUuid,
    timestamp: at,
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    isMeta: undefined,
    toolUseResult: undefined,
    message: { role: 'user', content: summary },
  };
  appendFileSync(path, `${JSON.stringify(boundary)}\n${JSON.stringify(summaryRecord)}\n`);
  appendResponse(path, postTokens, [{ type: 'text', text: 'Continuing from the summary.' }]);
}

/** A throwaway copy of the demo workspace, for tests that write workspace settings into it. */
export function copyDemoWorkspace(): string {
  const workspace = join(tempDir('context-lens-workspace-'), 'payments-demo');
  cpSync(DEMO_WORKSPACE, workspace, { recursive: true });
  return workspace;
}

/** Workspace settings, as a user would write them in `.vscode/settings.json`. */
export function writeWorkspaceSettings(workspace: string, settings: Record<string, unknown>): void {
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
}
