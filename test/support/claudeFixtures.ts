// Every Claude Code transcript the tests run on, in one list: the sessions recorded here with the
// real CLI (test/fixtures/claude-code/<scenario>/) and the public real transcripts kept with their
// attribution (test/fixtures/claude-code/public/<name>/). Each folder is a valid CLAUDE_CONFIG_DIR.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureFolders } from './fixtureFolders';

export const CLAUDE_FIXTURES = join(__dirname, '..', 'fixtures', 'claude-code');

export interface ClaudeFixture {
  /** `parallel`, `public/…`: how a test names it. */
  name: string;
  /** Recorded here (the API scripted, every record the CLI's) or a public transcript of a real session. */
  origin: 'recorded' | 'public';
  /** The fixture's folder, usable as CLAUDE_CONFIG_DIR. */
  configDir: string;
  /** Main session transcripts (subagents' files are not listed). */
  transcripts: string[];
}

function transcriptsOf(configDir: string): string[] {
  const projects = join(configDir, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((project) =>
    readdirSync(join(projects, project))
      // Subagents' files (`agent-*.jsonl`, beside the sessions before 2.1) are read with their session.
      .filter((name) => name.endsWith('.jsonl') && !name.startsWith('agent-'))
      .sort()
      .map((name) => join(projects, project, name)),
  );
}

export function claudeFixtures(): ClaudeFixture[] {
  return fixtureFolders(CLAUDE_FIXTURES)
    .map(({ name, origin, folder }) => ({ name, origin, configDir: folder, transcripts: transcriptsOf(folder) }))
    .filter((fixture) => fixture.transcripts.length > 0);
}

/** One entry per transcript, named `<fixture>` or `<fixture>/<session id>` when a fixture holds several. */
export function claudeTranscripts(): { name: string; origin: ClaudeFixture['origin']; path: string }[] {
  return claudeFixtures().flatMap((fixture) =>
    fixture.transcripts.map((path) => ({
      name:
        fixture.transcripts.length === 1
          ? fixture.name
          : `${fixture.name}/${path
              .split('/')
              .at(-1)
              ?.replace(/\.jsonl$/, '')}`,
      origin: fixture.origin,
      path,
    })),
  );
}
