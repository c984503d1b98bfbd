// Kilo's tools by their exact names, and what kind of context each brings in, for the engine: what
// 7.7.7 offered the stand-in (bash, edit, glob, grep, read, skill, task, todowrite, write, and its own
// background_process, board_post, board_read, kilo_local_recall, schedule_wakeup, cancel_wakeup), and
// the rest of OpenCode's built-in tools, which it keeps as a fork.
import type { ToolVocabulary } from '../../engine';

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
    // Kilo's own.
    background_process: 'command_execution',
    kilo_local_recall: 'search',
    board_post: 'other',
    board_read: 'other',
    schedule_wakeup: 'other',
    cancel_wakeup: 'other',
  },
};
