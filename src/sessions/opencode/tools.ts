// OpenCode's tools, for the engine: the family's built-in ones (common/opencodeFamily/tools.ts).
import type { ToolVocabulary } from '../../engine';
import { OPENCODE_BUILT_IN_TOOLS } from '../common/opencodeFamily/tools';

/** OpenCode has a read tool: its bash commands stay commands. */
export const OPENCODE_TOOLS: ToolVocabulary = { categories: OPENCODE_BUILT_IN_TOOLS };
