// Public surface of the Anthropic API stand-in: start it with a scenario, point a client at `url`.
export { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from './server';
export { compactFocus, reply, structuredSummary, text, thinking, toolUse } from './defaults';
export { classifyRequest, lastUserText, toolResultText, toolResults } from './request';
export { estimateTokens } from './usage';
export type * from './types';
