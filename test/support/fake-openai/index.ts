// Public surface of the Responses API stand-in: start it with a scenario, point Codex's provider at `url`.
export { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from './server';
export { applyPatch, defaultSummary, exec, message, reasoning, reply, updatePatch } from './script';
export { commandOutput, exitCode, itemText, outputText, TURN_METADATA_HEADER } from './request';
export { estimateTokens } from './usage';
export type * from './types';
