// Subagent conversations. When a scripted reply calls the Agent tool (`Task` in older clients)
// with a script attached, the client runs that agent as a conversation of its own: other system
// prompt, other tools, first user message = the call's `prompt`. The stand-in remembers each
// prompt it sent and answers requests that open with it from that call's script, so the main
// script is not consumed and agents running alongside the main loop cannot shift it.
import { defaultFallback } from './defaults';
import { firstUserText, lastUserText, toolCalls, toolResults } from './request';
import type { MessagesRequest, Reply, Turn } from './types';

interface Running {
  readonly prompt: string;
  readonly turns: readonly Turn[];
  calls: number;
}

export class Subagents {
  private readonly running: Running[] = [];

  /** Remembers the subagent scripts of a reply about to be sent. */
  register(reply: Reply): void {
    for (const block of reply.content) {
      if (block.type !== 'tool_use' || !block.subagent) continue;
      const prompt = block.input.prompt;
      if (typeof prompt !== 'string' || prompt === '') throw new Error(`${block.name} call with a subagent script needs a prompt`);
      this.running.push({ prompt, turns: block.subagent, calls: 0 });
    }
  }

  /** Whether this request belongs to a subagent conversation the stand-in started. */
  owns(request: MessagesRequest): boolean {
    return this.find(request) !== undefined;
  }

  /** Answers the next call of the subagent whose prompt opens this request. */
  answer(request: MessagesRequest): Reply {
    const agent = this.find(request);
    if (!agent) throw new Error('not a subagent request');
    const index = agent.calls++;
    const turn = agent.turns[index] ?? defaultFallback;
    const reply = turn({ request, index, lastUserText: lastUserText(request), toolResults: toolResults(request), calls: toolCalls(request) });
    this.register(reply);
    return reply;
  }

  private find(request: MessagesRequest): Running | undefined {
    const opening = firstUserText(request);
    // The newest match wins, so an agent re-launched with the same prompt gets the newer script.
    return [...this.running].reverse().find((agent) => opening.includes(agent.prompt));
  }
}
