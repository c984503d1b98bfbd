// Lays the bundled demo session out as Claude Code would have written it for the demo workspace:
// a private config folder whose projects/<encoded cwd>/ holds the recorded transcript, with the
// recording's placeholder cwd rewritten to where the workspace really is on this machine.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeProjectDirName } from '../src/sessions/claude-code';
import { cacheRoot } from './code-server/install';

const SAMPLES = join(__dirname, '..', 'samples', 'claude-config');
/** The cwd the demo was recorded in, after the fixtures were sanitised. */
export const RECORDED_CWD = '/home/user/payments-demo';

function rewriteCwd(folder: string, workspace: string): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) rewriteCwd(path, workspace);
    else if (name.endsWith('.jsonl')) {
      const text = readFileSync(path, 'utf8');
      writeFileSync(path, text.split(JSON.stringify(RECORDED_CWD).slice(1, -1)).join(JSON.stringify(workspace).slice(1, -1)));
    }
  }
}

/**
 * Returns the CLAUDE_CONFIG_DIR to hand to VS Code (by default a folder in the tool cache, wiped
 * first); it has no sessions when no demo is bundled.
 */
export function prepareDemoClaudeConfig(workspace: string, configDir = join(cacheRoot(), 'demo-claude-config')): string {
  rmSync(configDir, { recursive: true, force: true });
  const project = join(configDir, 'projects', encodeProjectDirName(workspace));
  mkdirSync(project, { recursive: true });
  const recorded = join(SAMPLES, 'projects');
  if (existsSync(recorded)) {
    for (const name of readdirSync(recorded)) cpSync(join(recorded, name), project, { recursive: true });
    rewriteCwd(project, workspace);
  }
  return configDir;
}
