// LLM summarizer through the official SDK. Credentials and endpoint come from the caller (the host
// keeps the key in SecretStorage); nothing is read from the environment here, so tests and a proxy
// setup behave the same. The SDK is loaded on the first summary: the extension host and the CLI
// create a summarizer without paying for the SDK's code unless a summary is asked for.
import type Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_ANTHROPIC_SUMMARY_MODEL } from './defaults';
import { errorText, type Summarizer, type SummaryRequest, type SummarizerResult } from '../engine';

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
  private client: Anthropic | null = null;
  private readonly model: string;

  constructor(private readonly options: AnthropicSummarizerOptions) {
    this.model = options.model || DEFAULT_ANTHROPIC_SUMMARY_MODEL;
  }

  async summarize(request: SummaryRequest, signal: AbortSignal): Promise<SummarizerResult> {
    try {
      const client = (this.client ??= await this.createClient());
      const response = await client.messages.create(
        { model: this.model, max_tokens: request.maxTokens, messages: [{ role: 'user', content: request.prompt }] },
        { signal },
      );
      const text = response.content
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join('\n')
        .trim();
      return text ? { ok: true, value: text } : { ok: false, error: `empty summary (stop reason ${response.stop_reason ?? 'unknown'})` };
    } catch (error) {
      return { ok: false, error: `anthropic: ${errorText(error)}` };
    }
  }

  private async createClient(): Promise<Anthropic> {
    const { Anthropic: Sdk } = await import('./anthropicSdk');
    return new Sdk({ apiKey: this.options.apiKey, baseURL: this.options.baseURL || null, maxRetries: this.options.maxRetries ?? 0 });
  }
}
