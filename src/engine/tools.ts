// What an agent's tools do, in the engine's categories. Each agent adapter hands the engine its own
// vocabulary, so the engine names no agent's tools; a tool no vocabulary names is placed by the
// name patterns of toolCategory.ts.
import type { ToolCategory } from './model';

export interface ToolVocabulary {
  /** Exact tool names and what they do. */
  readonly categories: Readonly<Record<string, ToolCategory>>;
  /**
   * Shell tools that are the agent's only way to read files: there, a command that just prints a
   * file (`cat`, `sed -n`, `head`) is a file read. Leave out shells of agents that have a read tool.
   */
  readonly fileReadingShells?: readonly string[];
}

/** For contexts whose agent is not known (a request in a test, a file no adapter recognised). */
export const NO_VOCABULARY: ToolVocabulary = { categories: {} };
