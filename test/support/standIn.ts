// What every scripted loopback stand-in of a model API has in common, whatever its wire format:
// the scenario it plays, how it is started and the handle a test gets back. Each stand-in
// (fake-gemini/, fake-openai/) fills these in with its own request, step and log types.
import type { RequestLog, ScriptedServer } from './scriptedServer';

/** The model's side of one prompt: the first step answers the prompt, each next step the previous step's tool results. */
export interface PromptScript<Step> {
  /** Recognises the prompt (the text of a user message) this script answers. */
  readonly prompt: string | RegExp;
  readonly steps: readonly Step[];
}

export interface Scenario<Step, Request> {
  readonly prompts: readonly PromptScript<Step>[];
  /** Answers a step past the end of a script or an unknown prompt (default: a short closing text). */
  readonly fallback?: Step;
  /** The summary the agent's own compaction asks for (default: a generic one). */
  readonly summary?: (request: Request) => string;
}

export interface StandInOptions<S> {
  readonly scenario: S;
  /** Also append every logged request to this JSONL file. */
  readonly logFile?: string;
}

export interface StandIn<Logged> {
  /** `http://127.0.0.1:<port>`: what the CLI's base URL points at. */
  readonly url: string;
  /** Every request received so far, oldest first. */
  readonly requests: readonly Logged[];
  /** Errors thrown by scripted steps; each was answered with a 400 so the client stops. */
  readonly errors: readonly Error[];
  stop(): Promise<void>;
}

/** The handle of a started stand-in: its server's address, errors and stop, and its request log. */
export function standIn<Logged>(server: ScriptedServer, requests: RequestLog<Logged>): StandIn<Logged> {
  return {
    url: server.url,
    get requests() {
      return requests.entries;
    },
    errors: server.errors,
    stop: () => server.stop(),
  };
}
