// LLM summarizer through the official SDK. Credentials and endpoint come from the caller (the host
// keeps the key in SecretStorage); nothing is read from the environment here, so tests and a proxy
// setup behave the same.
import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_ANTHROPIC_SUMMARY_MODEL } from './defaults';
import { errorText, type Summarizer, type SummaryRequest, type SummarizerResult } from '../engine/summarizers/types';

export interface AnthropicSummarizerOptions {
  apiKey: string;
  /** Empty: the SDK's default endpoint. */
  baseURL?: string;
  model?: string;
  /** The caller's timeout is the real bound; SDK retries would only stretch it. */
  maxRetries?: number;
}

/** Fast and inexpensive; summaries do not need the agent's own model. */

export class AnthropicSummarizer implements Summarizer {
  readonly name = 'anthropic';
  private readonly client: Anthropic;
  private readonly model: string;

  constructor(options: AnthropicSummarizerOptions) {
    this.client = new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL || null, maxRetries: options.maxRetries ?? 0 });
    this.model = options.model || DEFAULT_ANTHROPIC_SUMMARY_MODEL;
  }

  async summarize(request: SummaryRequest, signal: AbortSignal): Promise<SummarizerResult> {
    try {
      const response = await this.client.messages.create(
        { model: this.model, max_tokens: request.maxTokens, messages: [{ role: 'user', content: request.prompt }] },
        { signal },
      );
      const text = response.content
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join('\n')
        .trim();
      return text ? { ok: true, text } : { ok: false, error: `empty summary (stop reason ${response.stop_reason ?? 'unknown'})` };
    } catch (error) {
      return { ok: false, error: `anthropic: ${errorText(error)}` };
    }
  }
}
