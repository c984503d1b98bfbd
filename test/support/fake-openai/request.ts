// Reading a Responses request as the Codex CLI sends it: which kind of call it is and what its
// last input item says.
import type { CallKind, InputItem, ResponsesRequest } from './types';

/** Codex sends the turn's metadata as JSON in this header; `request_kind` tells a compaction. */
export const TURN_METADATA_HEADER = 'x-codex-turn-metadata';

export function turnMetadata(header: string | undefined): Record<string, unknown> | null {
  if (header === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(header);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function classify(path: string, body: unknown, metadata: Record<string, unknown> | null): CallKind {
  if (path !== '/v1/responses' || typeof body !== 'object' || body === null || !Array.isArray((body as ResponsesRequest).input)) return 'other';
  return metadata?.request_kind === 'compaction' ? 'compaction' : 'turn';
}

/** Text of a message item (`input_text` / `output_text` parts, or a bare string). */
export function itemText(item: InputItem | undefined): string {
  if (item === undefined) return '';
  if (typeof item.content === 'string') return item.content;
  if (!Array.isArray(item.content)) return '';
  return item.content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}

/** A tool output as text: Codex sends a string, or content items for images. */
export function outputText(item: InputItem | undefined): string | undefined {
  if (item === undefined || (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output')) return undefined;
  if (typeof item.output === 'string') return item.output;
  if (Array.isArray(item.output)) return item.output.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return JSON.stringify(item.output);
}

export function lastItem(request: ResponsesRequest): InputItem | undefined {
  return request.input[request.input.length - 1];
}

/** What the command printed, without the header `exec_command` puts before it (chunk id, wall time, exit code). */
export function commandOutput(output: string | undefined): string {
  if (output === undefined) return '';
  const marker = output.indexOf('\nOutput:\n');
  return marker === -1 ? output : output.slice(marker + '\nOutput:\n'.length);
}

/** The exit code `exec_command` reports in its output header, when it has one. */
export function exitCode(output: string | undefined): number | null {
  const match = /Process exited with code (-?\d+)/.exec(output ?? '');
  return match ? Number(match[1]) : null;
}
