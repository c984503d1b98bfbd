// Defaults the settings need without loading a summarizer (the Anthropic SDK loads only on use).

/** The model the Anthropic summarizer asks unless the person chose another. */
export const DEFAULT_ANTHROPIC_SUMMARY_MODEL = 'claude-haiku-4-5';
