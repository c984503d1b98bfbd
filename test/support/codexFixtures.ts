// Every Codex rollout the tests can run on, in one list: the rollouts recorded here with the real
// CLI (test/fixtures/codex/<scenario>/) and the public real rollouts kept with their attribution
// (test/fixtures/codex/public/<name>/). Each folder is a valid CODEX_HOME (`sessions/YYYY/MM/DD/rollout-*.jsonl`).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureFolders } from './fixtureFolders';

export const CODEX_FIXTURES = join(__dirname, '..', 'fixtures', 'codex');

export interface CodexFixture {
  /** `tally`, `public/…`: how a test names it. */
  name: string;
  /** Recorded here (the API scripted, every record the CLI's) or a public rollout of a real session. */
  origin: 'recorded' | 'public';
  /** The fixture's folder, usable as CODEX_HOME. */
  codexHome: string;
  /** Its rollouts, sorted by path. */
  rollouts: string[];
}

function rolloutsBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return rolloutsBelow(path);
      return /^rollout-.+\.jsonl$/.test(name) ? [path] : [];
    });
}

export function codexFixtures(): CodexFixture[] {
  return fixtureFolders(CODEX_FIXTURES)
    .map(({ name, origin, folder }) => ({ name, origin, codexHome: folder, rollouts: rolloutsBelow(join(folder, 'sessions')) }))
    .filter((fixture) => fixture.rollouts.length > 0);
}

/** One entry per rollout, named `<fixture>` or `<fixture>/<file name>` when a fixture holds several. */
export function codexRollouts(): { name: string; origin: CodexFixture['origin']; codexHome: string; path: string }[] {
  return codexFixtures().flatMap((fixture) =>
    fixture.rollouts.map((path) => ({
      name:
        fixture.rollouts.length === 1
          ? fixture.name
          : `${fixture.name}/${path
              .split('/')
              .at(-1)
              ?.replace(/\.jsonl$/, '')}`,
      origin: fixture.origin,
      codexHome: fixture.codexHome,
      path,
    })),
  );
}
