// Kilo's tools by their exact names, and what kind of context each brings in, for the engine: what
// 7.7.7 offered the stand-in (bash, edit, glob, grep, read, skill, task, todowrite, write, and its own
// background_process, board_post, board_read, kilo_local_recall, schedule_wakeup, cancel_wakeup), and
// the rest of OpenCode's built-in tools, which it keeps as a fork.
import type { ToolVocabulary } from '../../engine';
import { OPENCODE_BUILT_IN_TOOLS } from '../common/opencodeFamily/tools';

/** Kilo has a read tool: its bash commands stay commands. */
export const KILO_TOOLS: ToolVocabulary = {
  categories: {
    ...OPENCODE_BUILT_IN_TOOLS,
    // Kilo's own.
    background_process: 'command_execution',
    kilo_local_recall: 'search',
    board_post: 'other',
    board_read: 'other',
    schedule_wakeup: 'other',
    cancel_wakeup: 'other',
  },
};
