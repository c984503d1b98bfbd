// Claude Code's tools, in the engine's categories. It has a Read tool, so its Bash commands stay
// commands even when they only print a file.
import type { ToolVocabulary } from '../../engine';

export const CLAUDE_CODE_TOOLS: ToolVocabulary = {
  categories: {
    Read: 'file_read',
    NotebookRead: 'file_read',
    Write: 'file_write',
    Edit: 'file_write',
    MultiEdit: 'file_write',
    NotebookEdit: 'file_write',
    Bash: 'command_execution',
    BashOutput: 'command_execution',
    KillShell: 'command_execution',
    Grep: 'search',
    Glob: 'search',
    WebSearch: 'search',
    LS: 'list_directory',
    WebFetch: 'view_file',
    Task: 'other',
    TodoWrite: 'other',
  },
};
