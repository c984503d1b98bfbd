// Shapes shared by the loopback stand-in for the OpenAI Responses API as the Codex CLI uses it.
// Only what the stand-in reads or writes is typed; everything else passes through as unknown.
import type { Scenario as StandInScenario } from '../standIn';

/** One item of a request's `input` (a message, a tool call the model made, a tool's output…). */
export interface InputItem {
  readonly type: string;
  readonly role?: string;
  readonly content?: unknown;
  readonly call_id?: string;
  readonly name?: string;
  readonly arguments?: string;
  readonly input?: string;
  readonly output?: unknown;
  readonly [key: string]: unknown;
}

/** The body of `POST /v1/responses`. */
export interface ResponsesRequest {
  readonly model: string;
  readonly input: readonly InputItem[];
  readonly tools?: readonly Record<string, unknown>[];
  readonly stream?: boolean;
  readonly [key: string]: unknown;
}

/** What a scripted step answers with; the stand-in adds ids, call ids, usage and the SSE framing. */
export type ReplyItem =
  | { readonly type: 'message'; readonly text: string }
  /** `encrypted`: the opaque `encrypted_content` only the provider reads (the client sends it back as it came). */
  | { readonly type: 'reasoning'; readonly summary: string; readonly encrypted?: string }
  /** A function tool call (`exec_command` takes `{cmd}`). */
  | { readonly type: 'function_call'; readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }
  /** A freeform tool call (`apply_patch` takes the patch text as its input). */
  | { readonly type: 'custom_tool_call'; readonly name: string; readonly input: string };

export interface Reply {
  readonly items: readonly ReplyItem[];
  /** Overrides the estimated usage (e.g. to put the fill at an exact number). */
  readonly usage?: Partial<Usage>;
}

/** `turn`: the agent loop; `compaction`: Codex asks for its handoff summary; `other`: anything else. */
export type CallKind = 'turn' | 'compaction' | 'other';

export interface StepContext {
  readonly request: ResponsesRequest;
  /** The request's last input item: what the step answers. */
  readonly last: InputItem | undefined;
  /** Output text of the tool call the previous step made (its `function_call_output`), when this answers one. */
  readonly output: string | undefined;
}

export type Step = (context: StepContext) => Reply;

/** A test's conversation; its `summary` is the handoff summary Codex asks for when it compacts. */
export type Scenario = StandInScenario<Step, ResponsesRequest>;

/** The Responses API usage block; `input_tokens` includes the cached ones. */
export interface Usage {
  readonly input_tokens: number;
  readonly cached_tokens: number;
  readonly output_tokens: number;
  readonly reasoning_tokens: number;
}

/** One request the stand-in received, as logged for tests and fixtures. */
export interface LoggedRequest {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly kind: CallKind;
  /** Selected headers; `x-codex-turn-metadata` parsed. Credentials are never logged. */
  readonly headers: Readonly<Record<string, unknown>>;
  /** Parsed JSON body, or the raw text when it was not JSON, or null when empty. */
  readonly body: unknown;
  readonly usage?: Usage;
}
