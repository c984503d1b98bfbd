// Builds synthetic Claude Code transcripts shaped after §3 of the design notes and the recorded
// fixtures: chain records with envelopes, streamed assistant lines sharing message.id, tool
// results, compact boundaries with their summary.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir as sharedTempDir } from '../../../support/tempDir';

export type Json = Record<string, unknown>;

export interface Usage {
  input: number;
  cacheCreation?: number;
  cacheRead?: number;
  output: number;
}

export function tempDir(prefix = 'cl-sessions-'): string {
  return sharedTempDir(prefix);
}

export class TranscriptBuilder {
  readonly lines: string[] = [];
  private parent: string | null = null;
  private counter = 0;
  private clock = Date.parse('2026-01-01T00:00:00.000Z');

  constructor(
    readonly sessionId = 'session-1',
    readonly cwd = '/home/user/project',
    private readonly sidechain = false,
  ) {}

  private nextUuid(): string {
    this.counter++;
    return `00000000-0000-4000-8000-${String(this.counter).padStart(12, '0')}`;
  }

  private envelope(extra: Json): Json {
    const uuid = (extra.uuid as string | undefined) ?? this.nextUuid();
    this.clock += 1000;
    const record: Json = {
      parentUuid: this.parent,
      isSidechain: this.sidechain,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: '2.1.328',
      gitBranch: 'main',
      timestamp: new Date(this.clock).toISOString(),
      ...extra,
      uuid,
    };
    this.parent = uuid;
    return record;
  }

  /** Appends a raw record (any shape) without touching the chain. */
  record(record: Json): this {
    this.lines.push(JSON.stringify(record));
    return this;
  }

  /** Appends a raw line as is (for broken input). */
  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  /** The uuid the next chain record will name as parent. */
  get head(): string | null {
    return this.parent;
  }

  /** Continues the chain from another record (branching). */
  from(parent: string | null): this {
    this.parent = parent;
    return this;
  }

  user(content: string | Json[], extra: Json = {}): string {
    const record = this.envelope({ type: 'user', message: { role: 'user', content }, ...extra });
    this.record(record);
    return record.uuid as string;
  }

  toolResult(toolUseId: string, text: string): string {
    return this.user([{ type: 'tool_result', tool_use_id: toolUseId, content: text }], { toolUseResult: { stdout: text } });
  }

  /** One response written as one line per block (as Claude Code streams it); output is final only on the last line. */
  assistant(messageId: string, blocks: Json[], usage: Usage, model = 'claude-sonnet-4-5', extra: Json = {}): string[] {
    return blocks.map((block, index) => {
      const last = index === blocks.length - 1;
      const record = this.envelope({
        type: 'assistant',
        requestId: `req_${messageId}`,
        message: {
          id: messageId,
          type: 'message',
          role: 'assistant',
          model,
          content: [block],
          stop_reason: last ? 'end_turn' : null,
          usage: {
            input_tokens: usage.input,
            cache_creation_input_tokens: usage.cacheCreation ?? 0,
            cache_read_input_tokens: usage.cacheRead ?? 0,
            output_tokens: last ? usage.output : 1,
          },
        },
        ...extra,
      });
      this.record(record);
      return record.uuid as string;
    });
  }

  text(messageId: string, text: string, usage: Usage, model?: string, extra: Json = {}): string {
    return this.assistant(messageId, [{ type: 'text', text }], usage, model, extra)[0] as string;
  }

  toolUse(messageId: string, toolUseId: string, usage: Usage): string {
    return this.assistant(messageId, [{ type: 'tool_use', id: toolUseId, name: 'Bash', input: { command: 'ls' } }], usage)[0] as string;
  }

  /**
   * Parallel tool calls as Claude Code 2.x writes them: one assistant line per tool_use (same
   * message.id, each the parent of the next), then each tool_result naming its own tool_use line as
   * parent. The chain continues from the last result. `order` permutes the order the results are
   * written in (tools finish in any order).
   */
  parallel(
    messageId: string,
    calls: { id: string; name?: string; input?: Json; result: string }[],
    usage: Usage,
    order?: number[],
  ): { uses: string[]; results: string[] } {
    const uses = this.assistant(
      messageId,
      calls.map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name ?? 'Read',
        input: call.input ?? { file_path: `/home/user/project/${call.id}.ts` },
      })),
      usage,
    );
    const results: string[] = [];
    for (const index of order ?? calls.map((_, position) => position)) {
      const call = calls[index]!;
      this.from(uses[index]!);
      results[index] = this.user([{ type: 'tool_result', tool_use_id: call.id, content: call.result }], {
        toolUseResult: { stdout: call.result },
        sourceToolAssistantUUID: uses[index],
      });
    }
    return { uses, results };
  }

  /** `/compact`: boundary (parentUuid null, logicalParentUuid) then the summary user record. */
  compact(summary: string, metadata: Json = {}): { boundary: string; summary: string } {
    const logicalParentUuid = this.parent;
    this.parent = null;
    const boundary = this.envelope({
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      logicalParentUuid,
      level: 'info',
      compactMetadata: { trigger: 'manual', preTokens: 150_000, ...metadata },
    });
    this.record(boundary);
    const summaryUuid = this.user(`This session is being continued.\n\n${summary}`, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
    return { boundary: boundary.uuid as string, summary: summaryUuid };
  }

  toString(): string {
    return this.lines.map((line) => `${line}\n`).join('');
  }

  /** Writes `<dir>/<sessionId>.jsonl` (creating dir) and returns the path. */
  write(dir: string, name = `${this.sessionId}.jsonl`): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, this.toString());
    return path;
  }
}

/** A short, ordinary session: prompt, tool call, result, answer. */
export function basicSession(builder = new TranscriptBuilder()): TranscriptBuilder {
  builder.user('Fix the retry bug');
  builder.assistant(
    'msg_1',
    [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } },
    ],
    { input: 10, cacheCreation: 1000, cacheRead: 0, output: 40 },
  );
  builder.toolResult('toolu_1', 'export const a = 1;');
  builder.text('msg_2', 'Fixed.', { input: 5, cacheCreation: 100, cacheRead: 1040, output: 12 });
  return builder;
}
