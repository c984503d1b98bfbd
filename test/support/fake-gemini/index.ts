// Public surface of the Gemini API stand-in: start it with a scenario, point GOOGLE_GEMINI_BASE_URL at `url`.
export { startFakeGemini, type FakeGemini, type FakeGeminiOptions } from './server';
export { call, defaultSummary, reply, text, thought } from './script';
export { contentText, functionResponses, requestText, systemText } from './request';
export { estimateTokens } from './wire';
export type * from './types';
