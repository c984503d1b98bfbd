// Answers for the calls a scenario does not script: side calls, the /compact summarisation
// request, and main calls once the script has run out. Plus small builders for scripted turns.
import { lastUserText } from './request';
import type { MessagesRequest, Reply, ReplyBlock, Turn } from './types';

export const text = (value: string): ReplyBlock => ({ type: 'text', text: value });
export const thinking = (value: string): ReplyBlock => ({ type: 'thinking', thinking: value });
export const toolUse = (name: string, input: Record<string, unknown>): ReplyBlock => ({ type: 'tool_use', name, input });
export const reply = (...content: ReplyBlock[]): Reply => ({ content });

export interface AgentInput {
  readonly description: string;
  readonly prompt: string;
  readonly subagent_type?: string;
  /** Claude Code 2.1.328 runs agents in the background unless this is false. */
  readonly run_in_background?: boolean;
}

/**
 * A call of the subagent tool (`Agent` in Claude Code 2.1.328, `Task` before) whose conversation
 * the stand-in answers from `turns`.
 */
export const agent = (input: AgentInput, turns: readonly Turn[], toolName = 'Agent'): ReplyBlock => ({
  type: 'tool_use',
  name: toolName,
  input: { ...input },
  subagent: turns,
});

/** Side calls ask for a title, a topic or a yes/no; a short neutral phrase satisfies all of them. */
export function defaultSide(_request: MessagesRequest): Reply {
  return reply(text('Scripted session'));
}

export function defaultFallback(): Reply {
  return reply(text('Done.'));
}

/** The focus text of `/compact <instructions>`, when the summarisation request carries one. */
export function compactFocus(request: MessagesRequest): string | undefined {
  // Claude Code appends the focus text after this heading, followed by a blank line.
  const match = /Additional Instructions:\s*\n([^\n]+(?:\n[^\n]+)*)/i.exec(lastUserText(request));
  return match?.[1]?.trim();
}

/**
 * Claude Code asks for an <analysis> scratchpad followed by a <summary> with numbered sections and
 * keeps only the summary. This default follows that template with neutral content.
 */
export function structuredSummary(sections: Readonly<Record<string, string>>, analysis = 'Reviewed the conversation chronologically.'): Reply {
  const body = Object.entries(sections)
    .map(([title, content], index) => `${index + 1}. ${title}:\n${content}`)
    .join('\n\n');
  return reply(text(`<analysis>\n${analysis}\n</analysis>\n\n<summary>\n${body}\n</summary>`));
}

export function defaultCompact(request: MessagesRequest): Reply {
  const focus = compactFocus(request);
  return structuredSummary({
    'Primary Request and Intent': 'The user asked for changes to the project in this session.',
    'Key Technical Concepts': focus ? `Focus requested for this summary: ${focus}` : 'None recorded.',
    'Files and Code Sections': 'See the conversation.',
    'Errors and fixes': 'None recorded.',
    'Pending Tasks': 'None.',
    'Current Work': 'Waiting for the next instruction.',
  });
}
