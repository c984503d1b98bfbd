// Public surface of the Anthropic API stand-in: start it with a scenario, point a client at `url`.
export { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from './server';
export { agent, type AgentInput, compactFocus, reply, structuredSummary, text, thinking, toolUse } from './defaults';
export { classifyRequest, firstUserText, lastUserText, toolCalls, toolResultText, toolResults } from './request';
export { estimateTokens } from './usage';
export type * from './types';
