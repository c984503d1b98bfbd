// Shapes shared by the loopback stand-in of the Gemini API (generateContent and
// streamGenerateContent, REST form) as the Gemini CLI uses it. Only what the stand-in reads or
// writes is typed; everything else passes through as unknown.
import type { Scenario as StandInScenario } from '../standIn';

/** One part of a content: text, a tool call the model made, or a tool's result. */
export interface Part {
  readonly text?: string;
  readonly thought?: boolean;
  readonly functionCall?: { readonly id?: string; readonly name: string; readonly args?: Readonly<Record<string, unknown>> };
  readonly functionResponse?: { readonly id?: string; readonly name: string; readonly response?: unknown };
  readonly [key: string]: unknown;
}

export interface Content {
  readonly role?: string;
  readonly parts?: readonly Part[];
}

/** The body of `POST /v1beta/models/<model>:generateContent` (or `:streamGenerateContent`). */
export interface GeminiRequest {
  readonly contents: readonly Content[];
  readonly systemInstruction?: Content | string;
  readonly tools?: readonly Record<string, unknown>[];
  readonly generationConfig?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** What a scripted step answers with; the stand-in adds call ids, usage and the framing. */
export type ReplyPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thought'; readonly text: string }
  | { readonly type: 'call'; readonly name: string; readonly args: Readonly<Record<string, unknown>> };

export interface Reply {
  readonly parts: readonly ReplyPart[];
  /** Overrides the estimated usage (e.g. to put the fill at an exact number). */
  readonly usage?: Partial<UsageMetadata>;
}

/**
 * `turn`: the agent loop; `compression`: the CLI's own /compress passes (its <state_snapshot>
 * prompt); `json`: a structured side call (model router, session titles…); `other`: anything else.
 */
export type CallKind = 'turn' | 'compression' | 'json' | 'other';

export interface StepContext {
  readonly request: GeminiRequest;
  /** The request's last content: what the step answers. */
  readonly last: Content | undefined;
  /** The results of the calls the previous step made, as the CLI sent them back. */
  readonly results: readonly unknown[];
}

export type Step = (context: StepContext) => Reply;

/** A test's conversation; its `summary` is the <state_snapshot> the CLI's compression asks for. */
export type Scenario = StandInScenario<Step, GeminiRequest>;

/** The API's usage block; `promptTokenCount` includes the cached ones. */
export interface UsageMetadata {
  readonly promptTokenCount: number;
  readonly candidatesTokenCount: number;
  readonly cachedContentTokenCount: number;
  readonly thoughtsTokenCount: number;
  readonly totalTokenCount: number;
}

/** One request the stand-in received, as logged for tests and fixtures. */
export interface LoggedRequest {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  /** The model named in the path. */
  readonly model: string | null;
  readonly stream: boolean;
  readonly kind: CallKind;
  /** Selected headers; credentials are never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly usage?: UsageMetadata;
}
