// The Gemini API's answer as the CLI reads it: one GenerateContentResponse, or for
// `:streamGenerateContent?alt=sse` the same object as one `data:` event. Usage is sized like the
// request (four characters a token of everything it sends) so the fill grows call by call and a
// compression makes it drop, as against the real API, and never sits near the limit by itself.
import type { GeminiRequest, ReplyPart, UsageMetadata } from './types';

export function estimateTokens(value: string): number {
  return Math.ceil(value.length / 4);
}

export function usageFor(request: GeminiRequest, parts: readonly Record<string, unknown>[]): UsageMetadata {
  const prompt = estimateTokens(JSON.stringify([request.systemInstruction ?? null, request.contents, request.tools ?? []]));
  const thoughts = parts.filter((part) => part.thought === true).reduce((total, part) => total + estimateTokens(JSON.stringify(part)), 0);
  const candidates = Math.max(1, estimateTokens(JSON.stringify(parts.filter((part) => part.thought !== true))));
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    cachedContentTokenCount: 0,
    thoughtsTokenCount: thoughts,
    totalTokenCount: prompt + candidates + thoughts,
  };
}

/** Parts as the API sends them; `callId` names the n-th function call of this reply. */
export function wireParts(parts: readonly ReplyPart[], callId: (index: number) => string): Record<string, unknown>[] {
  let calls = 0;
  return parts.map((part) => {
    switch (part.type) {
      case 'text':
        return { text: part.text };
      case 'thought':
        return { text: part.text, thought: true };
      case 'call':
        return { functionCall: { id: callId(calls++), name: part.name, args: part.args } };
    }
  });
}

export function responseBody(parts: readonly Record<string, unknown>[], usage: UsageMetadata, model: string, responseId: string): Record<string, unknown> {
  const usageMetadata: Record<string, unknown> = { ...usage };
  if (usage.cachedContentTokenCount === 0) delete usageMetadata.cachedContentTokenCount;
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion: model,
    responseId,
  };
}

export function sseEvent(body: Record<string, unknown>): string {
  return `data: ${JSON.stringify(body)}\r\n\r\n`;
}
