// Cline's tools by their exact names, for the engine: the SDK's (the CLI 3.0.65 sends read_files,
// search_codebase, run_commands, fetch_web_content, editor, ask_question, spawn_agent and its team
// tools) and the VS Code extension's older XML and native tools.
import type { ToolVocabulary } from '../../engine';

export const CLINE_TOOLS: ToolVocabulary = {
  categories: {
    // The SDK (CLI, v4 extension)
    read_files: 'file_read',
    editor: 'file_write',
    run_commands: 'command_execution',
    search_codebase: 'search',
    fetch_web_content: 'view_file',
    ask_question: 'other',
    spawn_agent: 'other',
    // The legacy extension
    read_file: 'file_read',
    write_to_file: 'file_write',
    replace_in_file: 'file_write',
    execute_command: 'command_execution',
    search_files: 'search',
    list_files: 'list_directory',
    list_code_definition_names: 'search',
    browser_action: 'other',
    use_mcp_tool: 'other',
    access_mcp_resource: 'other',
    ask_followup_question: 'other',
    attempt_completion: 'other',
    plan_mode_respond: 'other',
    new_task: 'other',
    summarize_task: 'other',
    condense: 'other',
    web_fetch: 'view_file',
  },
};
