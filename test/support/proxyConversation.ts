// A growing Claude Code-like Messages request for proxy tests and the proxy benchmark: a system
// prompt, file tools, and turns that Read the same files again and again (so older reads are
// superseded), each result about `resultChars` long.
export interface ConversationOptions {
  /** Tool call/result pairs. */
  readonly turns: number;
  readonly resultChars?: number;
  /** How many distinct files the reads cycle through. */
  readonly files?: number;
  readonly stream?: boolean;
  readonly userId?: string;
}

type Block = Record<string, unknown>;
export interface Conversation {
  model: string;
  max_tokens: number;
  stream: boolean;
  metadata: { user_id: string };
  system: Block[];
  tools: Block[];
  messages: { role: 'user' | 'assistant'; content: string | Block[] }[];
}

const TOOLS: Block[] = ['Read', 'Edit', 'Bash'].map((name) => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object', properties: {} } }));

function fileText(file: number, turn: number, chars: number): string {
  const line = `// file${file}.ts revision ${turn}: const value = compute(${file}, ${turn});\n`;
  return line.repeat(Math.max(1, Math.ceil(chars / line.length))).slice(0, chars);
}

export function conversation(options: ConversationOptions): Conversation {
  const chars = options.resultChars ?? 4_000;
  const files = options.files ?? 3;
  const messages: Conversation['messages'] = [{ role: 'user', content: 'Please review the three source files and fix the bug.' }];
  for (let turn = 0; turn < options.turns; turn++) {
    const id = `toolu_${String(turn).padStart(6, '0')}`;
    const file = turn % files;
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Reading file ${file} again.` }, { type: 'tool_use', id, name: 'Read', input: { file_path: `/project/src/file${file}.ts` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: fileText(file, turn, chars) }] });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Looked at everything.' }] });
  messages.push({ role: 'user', content: 'Now summarise what you found.' });
  // In the order Claude Code sends its fields (the proxy looks for metadata from the end).
  return {
    model: 'claude-sonnet-5-5',
    messages,
    system: [{ type: 'text', text: 'You are a coding agent.' }],
    tools: TOOLS,
    metadata: { user_id: options.userId ?? 'user_test_session_1' },
    max_tokens: 1024,
    stream: options.stream ?? false,
  };
}

export const bytesOf = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

/** A rewrite's pieces (scan.ts Splice) in one buffer, as they go upstream; the one piece itself when alone. */
export function joinedPieces(pieces: readonly Buffer[]): Buffer {
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}
