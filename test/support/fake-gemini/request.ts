// Reading a Gemini API request as the Gemini CLI sends it: which model and method the path names,
// which kind of call it is, and what its last content says.
import type { CallKind, Content, GeminiRequest } from './types';

const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export interface Route {
  readonly model: string;
  readonly stream: boolean;
}

export function routeOf(path: string): Route | null {
  const match = ROUTE.exec(path);
  return match?.[1] === undefined ? null : { model: decodeURIComponent(match[1]), stream: match[2] === 'streamGenerateContent' };
}

/** All text parts of a content, joined; a bare string is its own text. */
export function contentText(content: Content | string | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return (content.parts ?? []).flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('\n');
}

export function systemText(request: GeminiRequest): string {
  return contentText(request.systemInstruction);
}

export function isGeminiRequest(body: unknown): body is GeminiRequest {
  return typeof body === 'object' && body !== null && Array.isArray((body as GeminiRequest).contents);
}

/** The CLI's compression prompt asks for a <state_snapshot>; its structured side calls ask for JSON. */
export function classify(route: Route | null, body: unknown): CallKind {
  if (route === null || !isGeminiRequest(body)) return 'other';
  if (systemText(body).includes('<state_snapshot>')) return 'compression';
  const config = body.generationConfig ?? {};
  if (config.responseMimeType === 'application/json' || 'responseJsonSchema' in config || 'responseSchema' in config) return 'json';
  return 'turn';
}

export function lastContent(request: GeminiRequest): Content | undefined {
  return request.contents[request.contents.length - 1];
}

/** Ids and bodies of the tool results a content carries. */
export function functionResponses(content: Content | undefined): { readonly id: string | undefined; readonly response: unknown }[] {
  return (content?.parts ?? []).flatMap((part) =>
    part.functionResponse === undefined ? [] : [{ id: part.functionResponse.id, response: part.functionResponse.response }],
  );
}

/** Every text the request sends (system instruction and contents): what tests search for our summary and rules. */
export function requestText(request: GeminiRequest): string {
  return [systemText(request), ...request.contents.map((content) => contentText(content))].join('\n');
}
