// Issue 41, items 4 and 5: a fork Context Lens writes reads back as its preview showed it, with the
// built CLI run as a process, on the published and recorded sessions of every agent with files:
// `compact --write-session --json`, then `inspect --json` of the fork. The total is the preview's
// (± 2 %), the system prompt and tools weigh what the calls had measured, and nothing is said to be
// measured by the provider before the agent's first call in the fork.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildCliBundles } from '../support/cliBundle';
import { claudeFixtures } from '../support/claudeFixtures';
import { codexFixtures } from '../support/codexFixtures';

const run = promisify(execFile);
const FIXTURES = join(__dirname, '..', 'fixtures');
const SAMPLES = join(__dirname, '..', '..', 'samples', 'claude-config');

interface Case {
  name: string;
  /** The folder to copy (a config dir, a codex home, a gemini home's parent). */
  folder: string;
  /** The session file, relative to the folder. */
  file: string;
  flags: (home: string) => string[];
}

function filesUnder(folder: string, pattern: RegExp): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

const cases: Case[] = [
  {
    name: 'claude-code/demo',
    folder: SAMPLES,
    file: relative(SAMPLES, filesUnder(join(SAMPLES, 'projects'), /^c6b61ed8.*\.jsonl$/)[0] as string),
    flags: (home) => ['--config-dir', home],
  },
  ...claudeFixtures().flatMap((fixture) => {
    const transcript = fixture.transcripts[0];
    return transcript === undefined
      ? []
      : [
          {
            name: `claude-code/${fixture.name}`,
            folder: fixture.configDir,
            file: relative(fixture.configDir, transcript),
            flags: (home: string) => ['--config-dir', home],
          },
        ];
  }),
  ...codexFixtures().flatMap((fixture) =>
    fixture.rollouts.map((rollout) => ({
      name: `codex/${fixture.name}/${basename(rollout).slice(0, 40)}`,
      folder: fixture.codexHome,
      file: relative(fixture.codexHome, rollout),
      flags: (home: string) => ['--codex-home', home],
    })),
  ),
  ...filesUnder(join(FIXTURES, 'gemini', 'published'), /\.json$/).map((chat) => ({
    name: `gemini/published/${basename(chat)}`,
    folder: chat,
    file: '',
    flags: (home: string) => ['--gemini-home', home, '--agent', 'gemini'],
  })),
];

interface Region {
  kind: string;
  tokensAfter: number;
}

const HEAD = new Set(['system', 'tools', 'unrecorded']);

describe('a fork reads back as its preview (issue 41, items 4 and 5)', () => {
  let root: string;
  let cli: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'cl-fork-readback-'));
    cli = (await buildCliBundles(join(root, 'bin'))).cli;
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  /** Forks written and read back: most sessions have something to compact. */
  let forks = 0;
  let ran = 0;
  after(() => assert.ok(forks >= ran / 2, `only ${forks} of ${ran} sessions gave a fork`));

  const ctxlens = async (args: string[]): Promise<Record<string, unknown>> =>
    JSON.parse((await run(process.execPath, [cli, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, HOME: root } })).stdout) as Record<
      string,
      unknown
    >;

  for (const testCase of cases) {
    it(testCase.name, async () => {
      ran += 1;
      const home = join(root, 'homes', String(readdirSync(root).length), String(Math.random()).slice(2));
      let file: string;
      if (testCase.file === '') {
        // A published Gemini chat, laid out as the CLI keeps it.
        const chats = join(home, '.gemini', 'tmp', 'published', 'chats');
        mkdirSync(chats, { recursive: true });
        file = join(chats, 'session-2026-01-01T00-00-0a0b0c0d.json');
        cpSync(testCase.folder, file);
      } else {
        cpSync(testCase.folder, home, { recursive: true });
        file = join(home, testCase.file);
      }
      // A target well inside the context, whatever its window.
      const before = await ctxlens(['inspect', file, ...testCase.flags(home), '--json']);
      const target = Math.round(0.4 * (before.context as { tokens: number }).tokens);
      const compacted = await ctxlens([
        'compact',
        file,
        ...testCase.flags(home),
        '--target-tokens',
        String(target),
        '--write-session',
        '--json',
        '--archive-dir',
        join(root, 'archive'),
      ]);
      if (compacted.status !== 'compacted') return; // Nothing to apply: no fork to read.
      forks += 1;
      const fork = compacted.fork as { path: string };
      const preview = (compacted.metrics as { tokensAfter: number }).tokensAfter;
      const previewHead = (compacted.regions as Region[]).filter((region) => HEAD.has(region.kind)).reduce((sum, region) => sum + region.tokensAfter, 0);
      const read = await ctxlens(['inspect', fork.path, ...testCase.flags(home), '--json']);
      const context = read.context as { tokens: number; measured: number };
      const breakdown = read.breakdown as { category: string; tokens: number }[];
      const head = breakdown.filter((row) => HEAD.has(row.category)).reduce((sum, row) => sum + row.tokens, 0);
      assert.ok(Math.abs(context.tokens - preview) <= Math.max(2, 0.02 * preview), `${testCase.name}: previewed ${preview}, read back ${context.tokens}`);
      assert.ok(
        Math.abs(head - previewHead) <= Math.max(2, 0.02 * previewHead),
        `${testCase.name}: system + tools ${previewHead} in the preview, ${head} read back`,
      );
      assert.equal(context.measured, 0, 'no call measured the fork yet');
    });
  }
});
