// Chat lines as the Gemini CLI 0.61 writes them, for tests that need a shape the recordings lack.
export const HEADER = {
  sessionId: '0badc0de-1111-4222-8333-444455556666',
  projectHash: 'f'.repeat(64),
  startTime: '2026-11-25T10:00:00.000Z',
  lastUpdated: '2026-11-25T10:00:00.000Z',
  kind: 'main',
};

export const sessionContext = (id = 'ctx'): Record<string, unknown> => ({
  id,
  timestamp: '2026-11-25T10:00:00.000Z',
  type: 'user',
  content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }],
});
export const user = (id: string, text: string): Record<string, unknown> => ({ id, timestamp: '2026-11-25T10:00:01.000Z', type: 'user', content: [{ text }] });
export const gemini = (id: string, text: string, input: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  timestamp: '2026-11-25T10:00:02.000Z',
  type: 'gemini',
  content: text,
  thoughts: [],
  tokens: { input, output: 7, cached: Math.floor(input / 2), thoughts: 3, tool: 0, total: input + 10 },
  model: 'gemini-3.8-flash',
  ...extra,
});
export const call = (id: string, name: string, args: Record<string, unknown>, output: string): Record<string, unknown> => ({
  id,
  name,
  args,
  result: [{ functionResponse: { id, name, response: { output } } }],
  status: 'success',
});
export const response = (id: string, callId: string, name: string, output: string): Record<string, unknown> => ({
  id,
  timestamp: '2026-11-25T10:00:03.000Z',
  type: 'user',
  content: [{ functionResponse: { id: callId, name, response: { output } } }],
});
export const set = (patch: Record<string, unknown>): Record<string, unknown> => ({ $set: patch });
export const rewind = (id: string): Record<string, unknown> => ({ $rewindTo: id });

export const lines = (records: readonly Record<string, unknown>[]): string => records.map((record) => `${JSON.stringify(record)}\n`).join('');

/** A `.gemini` folder layout: `<home>/.gemini/tmp/<project>/chats/<name>` and projects.json naming `cwd`. */
export function chatPath(home: string, name = 'session-2026-11-25T10-00-0badc0de.jsonl', project = 'app'): string {
  return `${home}/.gemini/tmp/${project}/chats/${name}`;
}
