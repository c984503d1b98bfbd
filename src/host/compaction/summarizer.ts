// The configured summarizer for Compact…. Free of `vscode`: the API key comes from SecretStorage
// through the caller, never from settings.
import { HeuristicSummarizer, type Summarizer } from '../../engine';
import { AnthropicSummarizer } from '../../summarizers/anthropic';
import { ClaudeCliSummarizer } from '../../summarizers/claudeCli';
import type { SummarizerSettings } from '../settings';

export type SummarizerChoice = { ok: true; summarizer: Summarizer; name: string } | { ok: false; error: string };

export function summarizerOf(settings: SummarizerSettings, apiKey: string | undefined, cwd: string | undefined): SummarizerChoice {
  switch (settings.provider) {
    case 'heuristic':
      return { ok: true, summarizer: new HeuristicSummarizer(), name: 'heuristic' };
    case 'anthropic':
      if (!apiKey) return { ok: false, error: 'The anthropic summarizer needs an API key: run "Context Lens: Set Anthropic API Key".' };
      return {
        ok: true,
        name: `anthropic (${settings.anthropicModel})`,
        summarizer: new AnthropicSummarizer({ apiKey, model: settings.anthropicModel, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) }),
      };
    case 'claude-cli':
      return { ok: true, name: 'claude-cli', summarizer: new ClaudeCliSummarizer({ ...(settings.claudeCliPath ? { path: settings.claudeCliPath } : {}), ...(cwd ? { cwd } : {}) }) };
  }
}
