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
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading file ${file} again.` },
        { type: 'tool_use', id, name: 'Read', input: { file_path: `/project/src/file${file}.ts` } },
      ],
    });
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

type Wire = Record<string, unknown>;
const textOf = (content: string | Block[]): string =>
  typeof content === 'string'
    ? content
    : content
        .filter((block) => block.type === 'text')
        .map((block) => String(block.text))
        .join('\n');
const calls = (content: string | Block[]): Block[] => (typeof content === 'string' ? [] : content.filter((block) => block.type === 'tool_use'));
const results = (content: string | Block[]): Block[] => (typeof content === 'string' ? [] : content.filter((block) => block.type === 'tool_result'));

/** The same conversation as an OpenAI Responses request (Codex's shape: `input` items, `prompt_cache_key`). */
export function asResponses(source: Conversation, sessionId = '01a21fd4-06eb-7560-a093-97e2083337fa'): Wire {
  const input = source.messages.flatMap((message): Wire[] => [
    ...(textOf(message.content)
      ? [{ type: 'message', role: message.role, content: [{ type: message.role === 'user' ? 'input_text' : 'output_text', text: textOf(message.content) }] }]
      : []),
    ...calls(message.content).map((call) => ({
      type: 'function_call',
      call_id: call.id,
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `cat ${String((call.input as Wire).file_path)}` }),
    })),
    ...results(message.content).map((result) => ({ type: 'function_call_output', call_id: result.tool_use_id, output: result.content })),
  ]);
  return {
    model: 'gpt-5.5',
    instructions: 'You are a coding agent.',
    input,
    tools: TOOLS.map((tool) => ({ type: 'function', name: tool.name, parameters: {} })),
    stream: source.stream,
    prompt_cache_key: sessionId,
  };
}

/** The same conversation as a Chat Completions request (OpenCode's shape: `tool_calls`, `role: "tool"`). */
export function asChat(source: Conversation): Wire {
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    ...source.messages.flatMap((message): Wire[] => {
      if (message.role === 'assistant')
        return [
          {
            role: 'assistant',
            content: textOf(message.content),
            ...(calls(message.content).length > 0
              ? {
                  tool_calls: calls(message.content).map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: 'read', arguments: JSON.stringify({ filePath: (call.input as Wire).file_path }) },
                  })),
                }
              : {}),
          },
        ];
      const tools = results(message.content).map((result) => ({ role: 'tool', tool_call_id: result.tool_use_id, content: result.content }));
      return tools.length > 0 ? tools : [{ role: 'user', content: textOf(message.content) }];
    }),
  ];
  return {
    model: 'fake-model',
    messages,
    tools: TOOLS.map((tool) => ({ type: 'function', function: { name: tool.name, parameters: {} } })),
    stream: source.stream,
  };
}

/** The same conversation as a Gemini request (Gemini CLI's shape: `functionCall` / `functionResponse` parts). */
export function asGemini(source: Conversation): Wire {
  const contents = source.messages.map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    parts: [
      ...(textOf(message.content) ? [{ text: textOf(message.content) }] : []),
      ...calls(message.content).map((call) => ({ functionCall: { id: call.id, name: 'read_file', args: call.input } })),
      ...results(message.content).map((result) => ({ functionResponse: { id: result.tool_use_id, name: 'read_file', response: { output: result.content } } })),
    ],
  }));
  return {
    contents,
    systemInstruction: { parts: [{ text: 'You are a coding agent.' }] },
    tools: [{ functionDeclarations: TOOLS.map((tool) => ({ name: tool.name, parameters: {} })) }],
  };
}
