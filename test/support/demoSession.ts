// The bundled demo session (recorded with the real Claude Code CLI) laid out in a private Claude
// configuration folder, and ways to make the "agent" write more to it during a test.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareDemoClaudeConfig } from '../../scripts/demo-session';
import { encodeProjectDirName } from '../../src/sessions/claude-code';

export const DEMO_WORKSPACE = join(__dirname, '..', '..', 'samples', 'demo-workspace');

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

export function prepareDemoSession(): DemoSession {
  const claudeConfigDir = prepareDemoClaudeConfig(DEMO_WORKSPACE, mkdtempSync(join(tmpdir(), 'context-lens-demo-claude-')));
  const projectDir = join(claudeConfigDir, 'projects', encodeProjectDirName(DEMO_WORKSPACE));
  const name = readdirSync(projectDir).find((entry) => entry.endsWith('.jsonl'));
  assert.ok(name, `no demo transcript in ${projectDir}`);
  return { claudeConfigDir, projectDir, transcript: join(projectDir, name) };
}

function lastRecord(path: string, type: string): TranscriptRecord {
  const records = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as TranscriptRecord);
  const found = records.reverse().find((record) => record.type === type);
  assert.ok(found, `no ${type} record in ${path}`);
  return found;
}

let appended = 0;
const nextUuid = () => `0e2e0e2e-0000-4000-8000-${String(++appended).padStart(12, '0')}`;

/** A further response from the agent: the last assistant record again, with more context used. */
export function appendResponse(path: string, cacheReadInputTokens: number, content?: unknown[]): string {
  const last = lastRecord(path, 'assistant');
  const tail = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as TranscriptRecord).filter((record) => record.uuid).at(-1);
  const uuid = nextUuid();
  const message = { ...last.message, id: `msg_e2e_${appended}`, usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: cacheReadInputTokens, output_tokens: 20 }, ...(content ? { content } : {}) };
  appendFileSync(path, `${JSON.stringify({ ...last, uuid, parentUuid: tail?.uuid ?? last.uuid, timestamp: new Date().toISOString(), message })}\n`);
  return uuid;
}

/** A tool call and its (hostile) result, as the agent would record them. */
export function appendToolRound(path: string, output: string, cacheReadInputTokens: number): void {
  const id = `toolu_e2e_${appended + 1}`;
  appendResponse(path, cacheReadInputTokens, [{ type: 'tool_use', id, name: 'Bash', input: { command: 'cat untrusted.html' } }]);
  const user = lastRecord(path, 'user');
  const parent = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as TranscriptRecord).at(-1)?.uuid;
  const record = {
    ...user,
    uuid: nextUuid(),
    parentUuid: parent,
    timestamp: new Date().toISOString(),
    isMeta: undefined,
    isCompactSummary: undefined,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: false }] },
    toolUseResult: { stdout: output, stderr: '', interrupted: false },
  };
  appendFileSync(path, `${JSON.stringify(record)}\n`);
  appendResponse(path, cacheReadInputTokens + 200, [{ type: 'text', text: 'That file is untrusted HTML; I will not render it.' }]);
}
