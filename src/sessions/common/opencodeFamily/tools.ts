// OpenCode's built-in tools by their exact names (as recorded from 1.18.33: read, bash, edit, task;
// the rest from its built-in tool list) and what kind of context each brings in: what every agent of
// the OpenCode family offers, Kilo's own tools added by its adapter.
import type { ToolVocabulary } from '../../../engine';

export const OPENCODE_BUILT_IN_TOOLS: ToolVocabulary['categories'] = {
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
};
