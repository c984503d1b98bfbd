// CLI test support: running `main` in-process, and recorded Claude Code sessions always copied to a
// temp folder first (commands may write forks next to a transcript; test/fixtures stays untouched).
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/main';
import { claudeFixtures } from '../../support/claudeFixtures';
import { tempDir } from '../../support/tempDir';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'claude-code');
/** The sessions recorded here (the public transcripts have their own tests). */
export const SCENARIOS = claudeFixtures()
  .filter((fixture) => fixture.origin === 'recorded')
  .map((fixture) => fixture.name);

export interface CopiedScenario {
  /** A valid CLAUDE_CONFIG_DIR. */
  configDir: string;
  transcript: string;
  sessionId: string;
}

export function copyScenario(name: string): CopiedScenario {
  const configDir = join(tempDir('cl-cli-'), name);
  cpSync(join(FIXTURES, name), configDir, { recursive: true });
  const projects = join(configDir, 'projects');
  const [project] = readdirSync(projects);
  const file = readdirSync(join(projects, project as string)).find((entry) => entry.endsWith('.jsonl')) as string;
  return { configDir, transcript: join(projects, project as string, file), sessionId: file.replace(/\.jsonl$/, '') };
}

export interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in-process with captured streams and an explicit environment. */
export async function run(argv: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const out = new PassThrough();
  const err = new PassThrough();
  const code = await main(argv, out, err, env);
  return { code, out: (out.read() as Buffer | null)?.toString() ?? '', err: (err.read() as Buffer | null)?.toString() ?? '' };
}
