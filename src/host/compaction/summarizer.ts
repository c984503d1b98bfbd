// The configured summarizer for Compact…. Free of `vscode`: the API key comes from SecretStorage
// through the caller, never from settings.
import { HeuristicSummarizer, type Summarizer } from '../../engine';
import { AnthropicSummarizer } from '../../summarizers/anthropic';
import { ClaudeCliSummarizer } from '../../summarizers/claudeCli';
import type { Result } from '../../base/result';
import type { SummarizerSettings } from '../settings';

/** The summarizer and the name it is shown by, or why there is none. */
export type SummarizerChoice = Result<{ summarizer: Summarizer; name: string }>;

export function summarizerOf(settings: SummarizerSettings, apiKey: string | undefined, cwd: string | undefined): SummarizerChoice {
  switch (settings.provider) {
    case 'heuristic':
      return { ok: true, value: { summarizer: new HeuristicSummarizer(), name: 'heuristic' } };
    case 'anthropic':
      if (!apiKey) return { ok: false, error: 'The anthropic summarizer needs an API key: run "Context Lens: Set Anthropic API Key".' };
      return {
        ok: true,
        value: {
          name: `anthropic (${settings.anthropicModel})`,
          summarizer: new AnthropicSummarizer({
            apiKey,
            model: settings.anthropicModel,
            ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}),
          }),
        },
      };
    case 'claude-cli':
      return {
        ok: true,
        value: {
          name: 'claude-cli',
          summarizer: new ClaudeCliSummarizer({ ...(settings.claudeCliPath ? { path: settings.claudeCliPath } : {}), ...(cwd ? { cwd } : {}) }),
        },
      };
  }
}
