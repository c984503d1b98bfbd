// The facts planted in the long recorded sessions (scripts/fixtures/scenarios/long-*.ts), as a
// reader resuming from the compacted context would look for them. `source` finds the item(s) the
// fact came from (a fact counts only when every item holding it was compacted); `expect` is what
// the output must still say, anywhere (summary, stubs, kept text, pinned block), case and spacing
// aside. Revoked rules must not come back as constraints.

export type FactKind = 'constraint' | 'decision' | 'error' | 'cause' | 'file-changed' | 'file-read' | 'fact' | 'open-loop';

export interface PlantedFact {
  id: string;
  kind: FactKind;
  /** Text of the item(s) the fact comes from. */
  source: string;
  /** Every pattern must be found in the output. Strings match case- and spacing-insensitively. */
  expect: readonly (string | RegExp)[];
}

export interface Session {
  /** Row label. */
  name: string;
  /** Fixture folder under test/fixtures/claude-code/. */
  fixture: string;
  /** `before-compact`: the context just before Claude Code's own /compact (the transcript cut there). */
  cut?: 'before-compact';
  facts: readonly PlantedFact[];
  /** Sentences of rules the person revoked later: never again a constraint. */
  revoked: readonly string[];
}

const changed = (path: string, how: 'updated' | 'created'): PlantedFact => ({
  id: `changed ${path}`,
  kind: 'file-changed',
  source: how === 'updated' ? `${path} has been updated successfully` : `File created successfully at: /home/user/semver-cli/${path}`,
  // Named as changed, not only mentioned: "src/diff.js (modified)", "Edit src/diff.js", "edited src/diff.js".
  expect: [
    new RegExp(
      `(?:${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^\\n]{0,40}(?:modified|edited|written|created|changed|updated))|(?:(?:Edit|Write|modified|edited|written|created|changed|updated)[^\\n]{0,40}${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')})`,
      'i',
    ),
  ],
});

const readOften = (path: string): PlantedFact => ({ id: `read ${path}`, kind: 'file-read', source: `${path} — vendored from an upstream`, expect: [path] });

const CONSTRAINTS = {
  vendor: { id: 'constraint: vendor', kind: 'constraint', source: 'Do not modify anything under vendor/.', expect: ['Do not modify anything under vendor/.'] },
  signatures: {
    id: 'constraint: signatures (2nd sentence)',
    kind: 'constraint',
    source: 'Keep the public function signatures of parse() and format() unchanged.',
    expect: ['Keep the public function signatures of parse() and format() unchanged.'],
  },
  main: {
    id: 'constraint: never push to main',
    kind: 'constraint',
    source: 'Never push to main directly; releases go through a release/* branch.',
    expect: ['Never push to main directly; releases go through a release/* branch.'],
  },
} as const satisfies Record<string, PlantedFact>;

const DECISION: PlantedFact = {
  id: 'decision: bump replaces max, with reason',
  kind: 'decision',
  source: 'Replacing the max subcommand with bump because',
  expect: ['Replacing the max subcommand with bump because max only duplicates'],
};
const FAILURE: PlantedFact = {
  id: 'error: not ok 9',
  kind: 'error',
  source: 'not ok 9 - diff prerelease to release',
  expect: ['not ok 9 - diff prerelease to release'],
};
const CAUSE: PlantedFact = { id: 'error cause', kind: 'cause', source: 'Test 9 fails because', expect: ["Test 9 fails because diff() returns 'preminor'"] };

export const SESSIONS: readonly Session[] = [
  {
    name: 'long-autonomous (1 turn)',
    fixture: 'long-autonomous',
    revoked: [],
    facts: [
      CONSTRAINTS.vendor,
      CONSTRAINTS.signatures,
      { id: 'constraint: no runtime deps', kind: 'constraint', source: 'Never add runtime dependencies.', expect: ['Never add runtime dependencies.'] },
      DECISION,
      FAILURE,
      CAUSE,
      changed('src/diff.js', 'updated'),
      changed('src/cli.js', 'updated'),
      changed('src/bump.js', 'created'),
      changed('docs/CHANGES.md', 'updated'),
      readOften('vendor/semver/compare.js'),
      readOften('vendor/semver/parse.js'),
      {
        id: 'fact: changelog location',
        kind: 'fact',
        source: 'the changelog lives in docs/CHANGES.md',
        expect: ['the changelog lives in docs/CHANGES.md, not CHANGELOG.md'],
      },
      {
        id: 'open loop: downstream max',
        kind: 'open-loop',
        source: 'Open question: does anything downstream',
        expect: ['Open question: does anything downstream parse the output of `max`?'],
      },
      {
        id: 'open loop: README TODO',
        kind: 'open-loop',
        source: 'TODO: update the README usage table',
        expect: ["TODO: update the README usage table once bump's flags settle."],
      },
    ],
  },
  {
    name: 'long-revoked (10 prompts)',
    fixture: 'long-revoked',
    revoked: ['Keep Node 18 compatibility: no top-level await and no built-in fetch.'],
    facts: [
      CONSTRAINTS.main,
      CONSTRAINTS.vendor,
      CONSTRAINTS.signatures,
      { id: 'revocation: Node 22', kind: 'decision', source: 'Forget the Node 18 rule; Node 22 is fine now.', expect: ['Node 22 is fine now'] },
      DECISION,
      FAILURE,
      CAUSE,
      changed('src/diff.js', 'updated'),
      changed('src/cli.js', 'updated'),
      changed('src/bump.js', 'created'),
      changed('scripts/release.ts', 'created'),
      readOften('vendor/semver/compare.js'),
      {
        id: 'open loop: registry (user)',
        kind: 'open-loop',
        source: 'Open question for later: do we still publish',
        expect: ['Open question for later: do we still publish to the internal registry?'],
      },
      {
        id: 'open loop: legacy script (agent)',
        kind: 'open-loop',
        source: 'TODO: remove scripts/legacy-release.sh',
        expect: ['TODO: remove scripts/legacy-release.sh once CI uses scripts/release.ts.'],
      },
    ],
  },
  {
    name: 'long-compacted, before /compact',
    fixture: 'long-compacted',
    cut: 'before-compact',
    revoked: [],
    facts: [
      CONSTRAINTS.vendor,
      CONSTRAINTS.signatures,
      DECISION,
      FAILURE,
      CAUSE,
      changed('src/diff.js', 'updated'),
      changed('src/cli.js', 'updated'),
      changed('src/bump.js', 'created'),
      readOften('vendor/semver/compare.js'),
      {
        id: 'open loop: bump default (user)',
        kind: 'open-loop',
        source: 'Open question: should bump default to patch or minor?',
        expect: ['Open question: should bump default to patch or minor?'],
      },
      {
        id: 'open loop: CHANGES TODO (agent)',
        kind: 'open-loop',
        source: 'TODO: document the bump levels',
        expect: ['TODO: document the bump levels in docs/CHANGES.md.'],
      },
    ],
  },
  {
    name: 'long-compacted, after /compact',
    fixture: 'long-compacted',
    revoked: [],
    facts: [
      // Carried only by Claude Code's own summary from here on.
      { ...CONSTRAINTS.vendor, id: 'constraint: vendor (CC summary)', source: 'The user said: Do not modify anything under vendor/.' },
      { ...CONSTRAINTS.signatures, id: 'constraint: signatures (CC summary)', source: 'The user said: Do not modify anything under vendor/.' },
      { ...FAILURE, id: 'error: not ok 9 (CC summary)', source: "not ok 9 - diff prerelease to release: diff() returned 'preminor'" },
      {
        id: 'open loop: bump default (CC summary)',
        kind: 'open-loop',
        source: 'Open question: should bump default to patch or minor? (patch',
        expect: ['Open question: should bump default to patch or minor?'],
      },
      {
        id: 'open loop: CHANGES TODO (CC summary)',
        kind: 'open-loop',
        source: 'TODO: document the bump levels in docs/CHANGES.md.\n',
        expect: ['TODO: document the bump levels in docs/CHANGES.md.'],
      },
      CONSTRAINTS.main,
      changed('scripts/release.ts', 'created'),
      readOften('vendor/semver/compare.js'),
    ],
  },
];
