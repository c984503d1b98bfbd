// Lays the bundled demo session out as Claude Code would have written it for the demo workspace:
// a private config folder whose projects/<encoded cwd>/ holds the recorded transcript, with the
// recording's placeholder cwd rewritten to where the workspace really is on this machine.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeProjectDirName } from '../src/sessions/claude-code/paths';
import { cacheRoot } from './code-server/install';

const SAMPLES = join(__dirname, '..', 'samples', 'claude-config');
/** The cwd and config folder the demo was recorded in, after the fixtures were sanitised. */
export const RECORDED_CWD = '/home/user/payments-demo';
const RECORDED_CONFIG_DIR = '/home/user/.claude';

/** Inside a JSON string, as the transcript stores it. */
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

const PLACEHOLDER = /\[client ([a-z ]+) removed: (\d+) chars\]/g;
const FILLER = ' not redistributed;';

/**
 * The fixtures replace Claude Code's own prompt texts by `[client … removed: N chars]` (we may not
 * ship them). Padded back to N characters, the demo's system prompt and tool definitions weigh in
 * the breakdown about what they weighed in the recorded requests, instead of a few tokens each.
 * samples/ is stored padded (scripts/fixtures/samples.ts), so the CLI run on it in the README and
 * the panel read the same demo; a placeholder already padded is left as it is.
 */
export function padPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, (placeholder: string, _what: string, chars: string, offset: number) => {
    const missing = Number(chars) - placeholder.length;
    if (missing <= 0 || text.startsWith(FILLER, offset + placeholder.length)) return placeholder;
    return placeholder + FILLER.repeat(Math.ceil(missing / FILLER.length)).slice(0, missing);
  });
}

/**
 * Points the recording's paths (cwd, persisted tool outputs) at where things are on this machine,
 * and pads the placeholders of the client's texts back to their length.
 */
function relocate(folder: string, replacements: readonly (readonly [string, string])[]): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) relocate(path, replacements);
    else if (name.endsWith('.jsonl')) {
      let text = padPlaceholders(readFileSync(path, 'utf8'));
      for (const [from, to] of replacements) text = text.split(jsonEscaped(from)).join(jsonEscaped(to));
      writeFileSync(path, text);
    }
  }
}

/** Every file under `folder`, as paths relative to it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(folder, name)).isFile());
}

/**
 * Returns the CLAUDE_CONFIG_DIR to hand to VS Code (by default a folder in the tool cache); it has
 * no sessions when no demo is bundled. Each run refreshes the bundled session's own files, each
 * replaced whole by a rename (a reader never sees half of one), and leaves every other file alone:
 * a fork the person wrote in an earlier run, Claude Code's own files, their notes.
 */
export function prepareDemoClaudeConfig(workspace: string, configDir = join(cacheRoot(), 'demo-claude-config')): string {
  const project = join(configDir, 'projects', encodeProjectDirName(workspace));
  mkdirSync(project, { recursive: true });
  const recorded = join(SAMPLES, 'projects');
  if (!existsSync(recorded)) return configDir;
  // Laid out and relocated beside its destination (same file system: the renames are atomic), then moved in file by file.
  const staging = mkdtempSync(join(configDir, '.demo-staging-'));
  try {
    for (const name of readdirSync(recorded)) cpSync(join(recorded, name), staging, { recursive: true });
    relocate(staging, [
      [`${RECORDED_CONFIG_DIR}/projects/${encodeProjectDirName(RECORDED_CWD)}`, project],
      [RECORDED_CWD, workspace],
    ]);
    for (const file of filesUnder(staging)) {
      mkdirSync(dirname(join(project, file)), { recursive: true });
      renameSync(join(staging, file), join(project, file));
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return configDir;
}

/** The bundled session's files, relative to the demo's project folder (what each run refreshes). */
export function bundledDemoFiles(): string[] {
  const recorded = join(SAMPLES, 'projects');
  if (!existsSync(recorded)) return [];
  return readdirSync(recorded).flatMap((name) => filesUnder(join(recorded, name)));
}
