// Reading a Messages request: which kind of call it is and what its newest user turn holds.
import type { CallKind, MessagesRequest, RequestBlock, RequestMessage, ToolCall } from './types';

export function blocksOf(message: RequestMessage | undefined): readonly RequestBlock[] {
  if (!message) return [];
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

export function lastUserMessage(request: MessagesRequest): RequestMessage | undefined {
  return [...request.messages].reverse().find((message) => message.role === 'user');
}

export function lastUserText(request: MessagesRequest): string {
  return blocksOf(lastUserMessage(request))
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

export function toolResults(request: MessagesRequest): readonly RequestBlock[] {
  return blocksOf(lastUserMessage(request)).filter((block) => block.type === 'tool_result');
}

/** The tool_use blocks of the newest assistant message, each joined to its tool_result by id. */
export function toolCalls(request: MessagesRequest): readonly ToolCall[] {
  const assistant = [...request.messages].reverse().find((message) => message.role === 'assistant');
  const results = new Map(toolResults(request).map((block) => [block.tool_use_id, block]));
  return blocksOf(assistant)
    .filter((block) => block.type === 'tool_use' && typeof block.id === 'string')
    .map((block) => {
      const id = block.id ?? '';
      const result = results.get(id);
      return { id, name: block.name ?? '', input: block.input, ...(result ? { result } : {}) };
    });
}

/** Text of the first user message (text blocks only): where a subagent conversation states its task. */
export function firstUserText(request: MessagesRequest): string {
  return blocksOf(request.messages.find((message) => message.role === 'user'))
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/**
 * The tool's output in a tool_result block, whether it came as a string or as text blocks, without
 * the <system-reminder> blocks Claude Code appends to it.
 */
export function toolResultText(block: RequestBlock): string {
  const raw = typeof block.content === 'string' ? block.content : (block.content ?? []).map((part) => part.text ?? '').join('\n');
  return raw.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, '');
}

/**
 * Claude Code's summarisation request for /compact ends with an instruction to write a summary
 * of the conversation; nothing else it sends does.
 */
const COMPACT_REQUEST = /summary of the conversation|summarize the conversation|create a detailed summary/i;

/**
 * The agent loop always offers its file tools; side calls (titles, topic detection…) offer few
 * or no tools. Compaction is recognised by its instruction whatever tools it carries.
 */
export function classifyRequest(request: MessagesRequest): CallKind {
  if (COMPACT_REQUEST.test(lastUserText(request))) return 'compact';
  const names = new Set((request.tools ?? []).map((tool) => tool.name));
  return names.has('Read') || names.has('Bash') ? 'main' : 'side';
}
