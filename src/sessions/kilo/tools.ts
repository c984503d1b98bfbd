// Kilo's tools by their exact names: OpenCode's (it is a fork), as its requests to the stand-in name
// them, and what kind of context each brings in, for the engine.
import type { ToolVocabulary } from '../../engine/tools';

/** Kilo has a read tool: its bash commands stay commands. */
export const KILO_TOOLS: ToolVocabulary = {
  categories: {
    read: 'file_read',
    write: 'file_write',
    edit: 'file_write',
    multiedit: 'file_write',
    patch: 'file_write',
    apply_patch: 'file_write',
    bash: 'command_execution',
    grep: 'search',
    glob: 'search',
    codesearch: 'search',
    websearch: 'search',
    list: 'list_directory',
    webfetch: 'view_file',
    task: 'other',
    todowrite: 'other',
    todoread: 'other',
    skill: 'other',
    question: 'other',
  },
};
