// The audit's test of whether a summary carried a rule matches whole words (or their stems), never
// a word inside a longer one: "works" is not in "workspace", "change" not in "changelog". Rules are
// phrased as people phrased them in the published sessions under test/fixtures (file named per case).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { auditCompaction, establishedBefore, holds, keptText, namesFile } from '../../../../src/engine/audit/compactionAudit';
import type { ContextItem } from '../../../../src/engine/model';

const prompt = (text: string): ContextItem[] => [
  { id: 1, kind: 'user', role: 'user', text, tokens: Math.ceil(text.length / 4) } as ContextItem,
  { id: 2, kind: 'assistant', role: 'assistant', text: 'Understood.', tokens: 3 } as ContextItem,
];
/** Whether the audit of `rule`, said before a compaction whose summary is `summary`, marks it carried. */
const carried = (rule: string, summary: string): boolean => {
  const audit = auditCompaction(prompt(rule), summary);
  const all = [...audit.carried, ...audit.dropped];
  assert.ok(
    all.some((entry) => entry.text === rule && entry.kind !== 'file'),
    `the audit finds "${rule}" as a rule or decision`,
  );
  return audit.carried.some((entry) => entry.text === rule);
};

interface Case {
  source: string;
  rule: string;
  reworded: string;
  lookalike: string;
}

const CASES: Case[] = [
  {
    source: 'gemini/published/aim/session-2026-03-18T01-58-b26e4930.json',
    rule: "Never tell me a fix is done until you've run the code and it works.",
    reworded: 'Do not tell the user a fix is done before the code has run and it works.',
    lookalike: 'Set up the workspace, updated the codebase, read the telltale logs and abandoned the undone migration.',
  },
  {
    source: 'claude-code/public/codemie-2.1.7 (subagent agent-a485154)',
    rule: 'Always use try-catch in command actions.',
    reworded: 'Command actions must be wrapped in try-catch.',
    lookalike: 'Added commandline flags, the transactions table and a retry-catcher.',
  },
  {
    source: 'claude-code/public/codemie-2.1.7',
    rule: "Don't block CLI if migration fails.",
    reworded: 'The CLI must never be blocked by a failing migration.',
    lookalike: 'Moved the blockchain code, added emigrationStats and failsafe defaults.',
  },
  {
    source: 'claude-code/public/codemie-2.0.76',
    rule: "Let's use unified tracking in the existing metrics file.",
    reworded: 'Decision: tracking is unified in the metrics file that already exists.',
    lookalike: 'Reviewed the biometrics dashboard, the nonexisting profile, the backtracking parser, the filesystem and the disunified config.',
  },
  {
    source: 'claude-code/public/spotter-2.1.39',
    rule: 'Never store raw request bodies or large file contents as span attributes.',
    reworded: 'Span attributes must not store raw request bodies or the contents of large files.',
    lookalike: 'Touched the datastore, requestid, somebodies, the enlarged profile, tablecontents, the spanner and attributesmap.',
  },
  {
    source: 'gemini/published/yoavf-ai-sessions/gemini-cli-pomodoro-timer.json',
    rule: 'Always check the content of the file after changes or not finding a string to match.',
    reworded: "After a change, or when a string fails to match, the agent checks the file's content.",
    lookalike: 'Updated the changelog, the checklist, the profile, the substring helper, the rematch logic and the contentious pathfinding notes.',
  },
  {
    source: 'claude-code/public/codemie-2.1.4',
    rule: 'Never merge back into processes.',
    reworded: 'Processes are not to be merged back.',
    lookalike: 'The submerged feedback from subprocesses was logged.',
  },
  {
    source: 'codex/public/codemie-0.125.0',
    rule: 'Never use the Read tool on skill files.',
    reworded: 'Skill files are not to be opened with the Read tool.',
    lookalike: 'The readme, the toolbar, the skillset and the profiles were updated.',
  },
  {
    source: 'gemini/published/aim/session-2026-03-18T01-58-b26e4930.json',
    rule: "Don't ask for permission for minor, reversible improvements.",
    reworded: 'Minor reversible improvements need no permission; the user said not to ask.',
    lookalike: 'The minority report, the permissionless mode, the irreversible migration and the selfimprovements backlog.',
  },
  {
    source: 'claude-code/public/codemie-2.0.76',
    rule: "Don't save conversationId if API call fails.",
    reworded: 'If the API call fails, the conversationId is not saved.',
    lookalike: 'Autosave, recall, failsafe and the conversationIdMap were wired up.',
  },
  {
    source: 'codex/public/codemie-0.128.0-alpha.1',
    rule: 'NEVER use the built in `browser-client` library.',
    reworded: 'The built-in browser-client library is off limits.',
    lookalike: 'Rebuilt the browser-clientele and the libraryloader.',
  },
  {
    source: 'codex/public/codemie-0.125.0',
    rule: 'Never praise your plan by contrasting it with an implied worse alternative.',
    reworded: 'Do not praise a plan by contrast with an implied worse alternative.',
    lookalike: 'The appraisers reviewed the planner, the worsening flakiness and the nonalternative path.',
  },
];

describe("the compaction audit's word matching", () => {
  it('a rule about "works" is not carried by a summary that only says "workspace" (regression)', () => {
    const rule = "Never tell me a fix is done until you've run the code and it works.";
    assert.equal(carried(rule, 'Set up the workspace, updated the codebase, read the telltale logs and abandoned the undone migration.'), false);
  });

  it('a rule about "change" is not carried by a summary that only says "changelog" (regression)', () => {
    const rule = 'Always check the content of the file after changes or not finding a string to match.';
    assert.equal(
      carried(rule, 'Updated the changelog, the checklist, the profile, the substring helper, the rematch logic and the contentious pathfinding notes.'),
      false,
    );
    // The whole text is matched only at word boundaries too.
    assert.equal(holds(keptText('We reuse pnpmx now.'), 'use pnpm'), false);
    assert.equal(holds(keptText('We use pnpm now.'), 'use pnpm'), true);
  });

  for (const { source, rule, reworded, lookalike } of CASES) {
    it(`"${rule}" (${source}): carried reworded, dropped by look-alike words`, () => {
      assert.equal(establishedBefore(prompt(rule)).length > 0, true);
      assert.equal(carried(rule, reworded), true, `carried by: ${reworded}`);
      assert.equal(carried(rule, lookalike), false, `dropped by: ${lookalike}`);
    });
  }

  it('a file is named by its path or its name as a whole path, not inside a longer one', () => {
    const kept = keptText('Edited lib/src/auth/login.ts and data.json; see README.md.');
    assert.equal(namesFile(kept, 'src/auth/login.ts'), true);
    assert.equal(namesFile(kept, 'src/other/login.ts'), true, 'a summary may shorten a path to its name');
    assert.equal(namesFile(kept, 'src/a.json'), false);
    assert.equal(namesFile(kept, 'README.md'), true, 'a full stop after a name ends the sentence');
    assert.equal(namesFile(keptText('Changed src/login.tsx.'), 'src/login.ts'), false);
    assert.equal(namesFile(keptText('Changed src/login.ts.bak.'), 'src/login.ts'), false);
    assert.equal(namesFile(keptText('Changed my-login.ts.'), 'login.ts'), false);
    // A path a rule names is found as a whole path, also at the end of a longer one.
    assert.equal(holds(keptText('config/prod.yaml must not be modified'), 'Never modify prod.yaml'), true);
  });

  it("a rule's words inserted only inside longer words never make it carried (property)", () => {
    // Rule words from letters the wrappers never use, so a wrapped word can never be, or stem to, a rule word.
    const ruleWord = fc.stringMatching(/^[abcdefghilmnoprstuvw]{4,10}$/);
    const wrap = fc.stringMatching(/^[jkqxz]{0,3}$/);
    const filler = fc.array(fc.constantFrom('the', 'a', 'and', 'was', 'updated', 'logs', 'ok'), { maxLength: 6 });
    fc.assert(
      fc.property(
        fc.uniqueArray(ruleWord, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(wrap, wrap), { minLength: 6, maxLength: 6 }),
        filler,
        (ruleWords, wraps, noise) => {
          const pieces = ruleWords.map((word, at) => {
            const [before, after] = wraps[at] ?? ['', ''];
            return before === '' && after === '' ? `q${word}` : `${before}${word}${after}`;
          });
          const summary = [...noise, ...pieces, ...noise].join(' ');
          assert.equal(holds(keptText(summary), ruleWords.join(' ')), false, summary);
          assert.equal(holds(keptText(summary), `Never ${ruleWords.join(' ')}.`), false, summary);
        },
      ),
      { numRuns: 300 },
    );
  });
});
