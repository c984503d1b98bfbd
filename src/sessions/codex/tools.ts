// Codex CLI's tools, in the engine's categories. Its shell is its only way to read a file, so a
// command that just prints one (`cat`, `sed -n`, `head`) counts as a file read.
import type { ToolVocabulary } from '../../engine';

export const CODEX_TOOLS: ToolVocabulary = {
  categories: {
    exec_command: 'command_execution',
    write_stdin: 'command_execution',
    shell: 'command_execution',
    local_shell: 'command_execution',
    apply_patch: 'file_write',
    view_image: 'view_file',
    update_plan: 'other',
  },
  fileReadingShells: ['exec_command', 'shell', 'local_shell'],
};
