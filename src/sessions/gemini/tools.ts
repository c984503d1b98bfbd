// The Gemini CLI's tools (0.61 names, packages/core/src/tools/tool-names.ts) in the engine's
// categories, so the engine names no agent's tools. Its shell tool is not its only way to read
// files (it has read_file), so its shell commands stay commands.
import type { ToolVocabulary } from '../../engine';

export const GEMINI_TOOLS: ToolVocabulary = {
  categories: {
    read_file: 'file_read',
    read_many_files: 'file_read',
    write_file: 'file_write',
    replace: 'file_write',
    run_shell_command: 'command_execution',
    glob: 'search',
    grep_search: 'search',
    // Older names: grep_search's legacy alias (TOOL_LEGACY_ALIASES), and the memory tool 0.61 dropped.
    search_file_content: 'search',
    google_web_search: 'search',
    list_directory: 'list_directory',
    web_fetch: 'view_file',
    read_mcp_resource: 'view_file',
    list_mcp_resources: 'list_directory',
    save_memory: 'other',
    write_todos: 'other',
    activate_skill: 'other',
    ask_user: 'other',
    enter_plan_mode: 'other',
    exit_plan_mode: 'other',
    get_internal_docs: 'view_file',
    invoke_agent: 'other',
    complete_task: 'other',
    update_topic: 'other',
  },
};
