// Small rollouts in the shapes the real Codex CLI writes (shared/design/codex.md, the tally
// fixture): `{timestamp, ordinal, type, payload}` per line, a session_meta, a turn_context, response
// items and token_count events. For cases the pinned CLI cannot produce offline (Codex's encrypted
// compaction items, a file cut mid-call, JSON rewritten by another tool).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SESSION_ID = '01a20a7c-0000-7000-8000-00000000abcd';
const TIME = '2026-11-23T22:17:45.000Z';

export type Item = { type: string; [key: string]: unknown };
export type Line = { type: string; payload: Record<string, unknown> };

export const user = (text: string): Item => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
export const assistant = (text: string): Item => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
export const call = (id: string, cmd: string): Item => ({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: id });
export const output = (id: string, text: string): Item => ({
  type: 'function_call_output',
  call_id: id,
  output: `Chunk ID: 1\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\n${text}`,
});
/** Codex 0.117+'s remote compaction output: an encrypted summary (base64). */
export const compaction = (bytes: number): Item => ({ type: 'compaction', encrypted_content: Buffer.alloc(bytes, 7).toString('base64') });

export const meta = (): Line => ({
  type: 'session_meta',
  payload: {
    id: SESSION_ID,
    session_id: SESSION_ID,
    timestamp: TIME,
    cwd: '/home/user/tally',
    originator: 'codex_exec',
    cli_version: '0.169.0',
    source: 'exec',
    model_provider: 'fake',
    base_instructions: { text: 'You are Codex.' },
  },
});
export const turnContext = (): Line => ({
  type: 'turn_context',
  payload: { cwd: '/home/user/tally', approval_policy: 'never', sandbox_policy: { type: 'danger-full-access' }, model: 'gpt-5.5' },
});
export const item = (payload: Item): Line => ({ type: 'response_item', payload });
export const tokenCount = (input: number, output = 10): Line => {
  const usage = { input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output };
  return {
    type: 'event_msg',
    payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 258400 }, rate_limits: null },
  };
};
export const compacted = (message: string, replacement: Item[]): Line => ({ type: 'compacted', payload: { message, replacement_history: replacement } });

/** Writes the rollout where Codex would (`<home>/sessions/2026/11/23/rollout-…-<id>.jsonl`); returns its path. */
export function writeRollout(home: string, lines: readonly Line[], format: (record: unknown) => string = (record) => JSON.stringify(record)): string {
  const folder = join(home, 'sessions', '2026', '11', '23');
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `rollout-2026-11-23T22-17-45-${SESSION_ID}.jsonl`);
  writeFileSync(path, `${lines.map((line, ordinal) => format({ timestamp: TIME, ordinal, ...line })).join('\n')}\n`);
  return path;
}
