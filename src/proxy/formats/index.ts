// The wire formats the live proxy reads, by the request they serve. A request none of them reads
// (another path, another provider) goes upstream untouched, and its event says so.
import { ANTHROPIC_MESSAGES } from './anthropic';
import { OPENAI_CHAT } from './chat';
import type { FormatName, WireFormat } from './format';
import { GEMINI } from './gemini';
import { OPENAI_RESPONSES } from './responses';

export { FORMAT_NAMES, type BodyScan, type EngineRequest, type FormatName, type ToolResultSpan, type UsageReader, type WireFormat } from './format';

export const FORMATS: Readonly<Record<FormatName, WireFormat>> = {
  'anthropic-messages': ANTHROPIC_MESSAGES,
  'openai-responses': OPENAI_RESPONSES,
  'openai-chat': OPENAI_CHAT,
  gemini: GEMINI,
};

/** The format that reads this request, or null (passed through). */
export function formatOf(method: string, path: string): WireFormat | null {
  return Object.values(FORMATS).find((format) => format.matches(method, path)) ?? null;
}
