// Shapes shared by the loopback stand-in for the Anthropic Messages API. Only the parts of the
// wire format the stand-in reads or writes are typed; everything else passes through as unknown.

/** A content block as a client sends it; only `type` is guaranteed. */
export interface RequestBlock {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly tool_use_id?: string;
  readonly content?: string | readonly RequestBlock[];
  readonly is_error?: boolean;
  readonly cache_control?: unknown;
}

export interface RequestMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly RequestBlock[];
}

export interface RequestTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema?: unknown;
}

/** The body of `POST /v1/messages` (and `/v1/messages/count_tokens`). */
export interface MessagesRequest {
  readonly model: string;
  readonly messages: readonly RequestMessage[];
  readonly system?: string | readonly RequestBlock[];
  readonly tools?: readonly RequestTool[];
  readonly max_tokens?: number;
  readonly stream?: boolean;
  readonly [key: string]: unknown;
}

/** What a scripted turn answers with; the stand-in adds ids, usage and the wire framing. */
export type ReplyBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string }
  | {
      readonly type: 'tool_use';
      readonly name: string;
      readonly input: Record<string, unknown>;
      readonly id?: string;
      /**
       * For an `Agent`/`Task` call: the script of the subagent conversation the client starts for
       * it. Never sent; the stand-in answers requests opening with `input.prompt` from it.
       */
      readonly subagent?: readonly Turn[];
    };

export interface Reply {
  readonly content: readonly ReplyBlock[];
  /** Defaults to `tool_use` when the reply calls a tool, else `end_turn`. */
  readonly stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
}

/**
 * Which kind of call the client made. `main` calls consume the scenario script; `compact` calls
 * are the client's summarisation request for /compact; `side` calls are everything else the
 * client asks on the side (titles, topic detection…), answered without touching the script;
 * `subagent` calls belong to a conversation started by a scripted Agent call, answered from that
 * call's own script.
 */
export type CallKind = 'main' | 'side' | 'compact' | 'subagent';

/** A tool_use block of the newest assistant message, joined to its tool_result by id. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** Absent when the client sent no result for this call. */
  readonly result?: RequestBlock;
}

/** What a scripted turn sees: the request plus conveniences extracted from it. */
export interface TurnContext {
  readonly request: MessagesRequest;
  /** 0-based index of this call among the scenario's main calls (or its subagent's calls). */
  readonly index: number;
  /** Text of the newest user message (text blocks only, reminders included). */
  readonly lastUserText: string;
  /** `tool_result` blocks of the newest user message, in the order the client sent them. */
  readonly toolResults: readonly RequestBlock[];
  /**
   * The previous reply's tool calls in the order they were made, each with its result. Clients
   * may send the results of parallel calls in another order (Claude Code puts an Agent's first).
   */
  readonly calls: readonly ToolCall[];
}

export type Turn = (context: TurnContext) => Reply;

export interface Scenario {
  /** Main calls answered in order; once exhausted, `fallback` answers. */
  readonly turns: readonly Turn[];
  /** Answers main calls after the script ran out (default: a short closing text). */
  readonly fallback?: Turn;
  /** Answers the /compact summarisation request (default: a generic structured summary). */
  readonly compact?: (request: MessagesRequest) => Reply;
  /** Answers side calls (default: a short title-like text). */
  readonly side?: (request: MessagesRequest) => Reply;
  /** Overrides how a request is classified (default: classifyRequest); subagent requests are recognised first. */
  readonly classify?: (request: MessagesRequest) => CallKind;
}

export interface Usage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly output_tokens: number;
}

/** One request the stand-in received, as logged for tests and fixtures. */
export interface LoggedRequest {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  /** `count_tokens` and `other` (probes) besides the message call kinds. */
  readonly kind: CallKind | 'count_tokens' | 'other';
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or the raw text when it was not JSON, or null when empty. */
  readonly body: unknown;
  /** The usage the stand-in reported for a message call. */
  readonly usage?: Usage;
}
