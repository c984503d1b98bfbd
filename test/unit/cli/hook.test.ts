import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { BUDGET_SETTING, EXTRACT_SETTING, FOCUS_SETTING, PINNED_SETTING, runHook } from '../../../src/cli/hook';
import { hookEventsPath } from '../../../src/contracts/hookEvents';
import { PHRASINGS } from '../engine/support/phrasings';
import { copyScenario, FIXTURES, run } from './support';
import { tempDir } from '../../support/tempDir';

// What Claude Code 2.1.328 piped to the hooks around `/compact focus on the retry logic`, recorded
// with the hook-inputs fixture (see its README). Its transcript's first prompt holds a constraint
// and a TODO; the recorded paths are the sanitised /home/user ones, so each test points the input
// at a copy of that transcript and at a workspace folder of its own.
const RECORDED_CONFIG_DIR = '/home/user/.claude';
const recorded = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, 'hook-inputs', file), 'utf8')) as Record<string, unknown>;
const PRE_COMPACT = recorded('pre-compact.json');
const SESSION_START = recorded('session-start.json');

const TYPED_CONSTRAINT = 'Fix it, but never change its signature: chargeCard and other callers depend on it.';
const TYPED_OPEN_LOOP = 'TODO: decide whether client errors (4xx) should be retried at all.';
/** The agent's own open loop: carried by the hooks too (issue 13). */
const AGENT_OPEN_LOOP = 'Whether 4xx errors are retried is still open.';
/** The second prompt states a rule with "should", no keyword of the old list (issue 23). */
const TYPED_RULE = 'Client errors should fail fast.';
/**
 * Both loops were closed later in the recorded session ("Client errors (4xx) are now thrown at once"):
 * handed on as done, never as still open (issue 23: state, not history).
 */
const CLOSED = 'Client errors (4xx) are now thrown at once';
const DONE_SINCE = ['Done since (not open any more):', `- ${TYPED_OPEN_LOOP} — done later: ${CLOSED}`, `- ${AGENT_OPEN_LOOP} — done later: ${CLOSED}`];
/** The person's prompts, printed word for word after the pinned block. */
const PROMPTS = [
  '<user-prompts>',
  "The user's prompts, word for word, oldest first:",
  `- withRetry in src/retry.ts makes one attempt too few. ${TYPED_CONSTRAINT} ${TYPED_OPEN_LOOP}`,
  `- ${TYPED_RULE} Make it so.`,
  '</user-prompts>',
];
const focusLines = (focus: string): string => `Focus the summary on: ${focus}\n(the standing focus set for this workspace in Context Lens)\n`;

/** `settings` is the workspace's .vscode/settings.json: raw text (JSON with comments) or an object. */
function setup(settings?: string | Record<string, unknown>) {
  const copy = copyScenario('hook-inputs');
  const cwd = tempDir('cl-hook-cwd-');
  if (settings !== undefined) {
    mkdirSync(join(cwd, '.vscode'));
    writeFileSync(join(cwd, '.vscode', 'settings.json'), typeof settings === 'string' ? settings : JSON.stringify(settings));
  }
  const env = { XDG_STATE_HOME: tempDir('cl-hook-state-') };
  const local = (input: Record<string, unknown>) => ({
    ...input,
    transcript_path: String(input.transcript_path).replace(RECORDED_CONFIG_DIR, copy.configDir),
    cwd,
  });
  return {
    env,
    copy,
    preCompact: (custom_instructions = PRE_COMPACT.custom_instructions) => JSON.stringify({ ...local(PRE_COMPACT), custom_instructions }),
    sessionStart: (source = SESSION_START.source) => JSON.stringify({ ...local(SESSION_START), source }),
  };
}

async function hook(name: 'pre-compact' | 'session-start', stdin: string, env: Record<string, string>) {
  const out = new PassThrough();
  const code = await runHook(name, stdin, { out, err: new PassThrough(), env });
  return { code, out: (out.read() as Buffer | null)?.toString() ?? '' };
}

const events = (env: Record<string, string>): Record<string, unknown>[] =>
  readFileSync(hookEventsPath(env), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('recorded hook inputs', () => {
  it('belong to the recorded transcript: same session, same paths', () => {
    const { copy } = setup();
    for (const input of [PRE_COMPACT, SESSION_START]) {
      assert.equal(input.session_id, copy.sessionId);
      assert.equal(String(input.transcript_path).replace(RECORDED_CONFIG_DIR, copy.configDir), copy.transcript);
      assert.equal(input.cwd, '/home/user/payments-hooks');
    }
    assert.deepEqual([PRE_COMPACT.hook_event_name, PRE_COMPACT.trigger, PRE_COMPACT.custom_instructions], ['PreCompact', 'manual', 'focus on the retry logic']);
    assert.deepEqual([SESSION_START.hook_event_name, SESSION_START.source], ['SessionStart', 'compact']);
  });
});

describe('ctxlens hook pre-compact', () => {
  it('prints the configured and extracted constraints and open loops with the keep-verbatim line, and records the event', async () => {
    const { env, copy, preCompact } = setup(`{
      // JSON with comments, as VS Code writes it; a URL's // is not a comment
      "docs": "https://example.com/a",
      "${PINNED_SETTING}": ["Use pnpm, never npm.",],
    }`);
    const result = await hook('pre-compact', preCompact(), env);
    assert.equal(result.code, 0);
    const [header, ...block] = result.out.split('\n');
    assert.match(header ?? '', /^Keep the user's words below verbatim in the summary/);
    assert.deepEqual(block, [
      '<pinned>',
      'Constraints:',
      '- Use pnpm, never npm.',
      `- ${TYPED_CONSTRAINT}`,
      `- ${TYPED_RULE}`,
      ...DONE_SINCE,
      '</pinned>',
      ...PROMPTS,
      '',
    ]);
    assert.deepEqual(
      events(env).map(({ hook: name, sessionId, trigger, focus, constraints, openLoops, printed }) => ({
        name,
        sessionId,
        trigger,
        focus,
        constraints,
        openLoops,
        printed,
      })),
      [{ name: 'pre-compact', sessionId: copy.sessionId, trigger: 'manual', focus: 'focus on the retry logic', constraints: 3, openLoops: 0, printed: true }],
    );
  });

  it("adds the workspace's standing focus after the block, unless the /compact instructions already name it", async () => {
    const standing = setup({ [FOCUS_SETTING]: ' the timeout option ' });
    const added = await hook('pre-compact', standing.preCompact(), standing.env);
    assert.ok(added.out.endsWith(`</user-prompts>\n${focusLines('the timeout option')}`), added.out);
    assert.deepEqual(await hook('pre-compact', standing.preCompact(''), standing.env), added, 'without instructions of its own too');
    assert.deepEqual(
      events(standing.env).map((event) => event.workspaceFocus),
      ['the timeout option', 'the timeout option'],
    );

    // Matched without regard to case: the person's own "/compact focus on the retry logic" says it already.
    const named = setup({ [FOCUS_SETTING]: 'The Retry Logic' });
    const result = await hook('pre-compact', named.preCompact(), named.env);
    assert.ok(result.out.endsWith('</user-prompts>\n'), result.out);
    assert.ok(!result.out.includes('Focus the summary on'));
    assert.equal(events(named.env)[0]?.workspaceFocus, null);
  });

  it('extracts nothing from the transcript when extractPinned is false', async () => {
    const configured = setup({ [EXTRACT_SETTING]: false, [PINNED_SETTING]: ['Use pnpm, never npm.'] });
    const result = await hook('pre-compact', configured.preCompact(), configured.env);
    assert.deepEqual(result.out.split('\n').slice(1), ['<pinned>', 'Constraints:', '- Use pnpm, never npm.', '</pinned>', '']);

    const focusOnly = setup({ [EXTRACT_SETTING]: false, [FOCUS_SETTING]: 'the timeout option' });
    assert.equal((await hook('pre-compact', focusOnly.preCompact(), focusOnly.env)).out, focusLines('the timeout option'));

    const nothing = setup({ [EXTRACT_SETTING]: false });
    assert.deepEqual(await hook('pre-compact', nothing.preCompact(), nothing.env), { code: 0, out: '' });
    assert.deepEqual(
      events(nothing.env).map(({ constraints, openLoops, printed }) => ({ constraints, openLoops, printed })),
      [{ constraints: 0, openLoops: 0, printed: false }],
    );
  });

  it('keeps secrets pasted into the /compact instructions out of the events log', async () => {
    const { env, preCompact } = setup();
    await hook('pre-compact', preCompact('focus on the deploy, token sk-ant-api03-abcdefghijklmnop and password=hunter2'), env);
    const logged = readFileSync(hookEventsPath(env), 'utf8');
    assert.ok(!logged.includes('abcdefghijklmnop') && !logged.includes('hunter2'), logged);
    assert.equal(events(env)[0]?.focus, 'focus on the deploy, token [REDACTED] and password=[REDACTED]');
  });

  it('keeps the events file private: 0600 in a 0700 folder, tightened when an older run left it open', async () => {
    const { env, preCompact } = setup();
    await hook('pre-compact', preCompact(), env);
    const path = hookEventsPath(env);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    chmodSync(path, 0o644);
    await hook('pre-compact', preCompact(), env);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(events(env).length, 2);
  });

  it('keeps a secret in a pinned constraint out of what it prints to Claude Code', async () => {
    const { env, preCompact } = setup({ [PINNED_SETTING]: ['Deploy with DB_PASSWORD=hunter2hunter2 only to staging.'] });
    const { out } = await hook('pre-compact', preCompact(), env);
    assert.match(out, /Deploy with DB_PASSWORD=\[REDACTED\] only to staging\./);
    assert.ok(!out.includes('hunter2hunter2'));
  });

  it('prints nothing and exits 0 on bad input, logging the error', async () => {
    const { env, preCompact } = setup('{ not json');
    assert.deepEqual(await hook('pre-compact', preCompact(), env), { code: 0, out: '' });
    assert.deepEqual(await hook('pre-compact', '{"transcript_path": "/nonexistent.jsonl"}', env), { code: 0, out: '' });
    assert.deepEqual(await hook('pre-compact', 'garbage', env), { code: 0, out: '' });
    assert.ok(events(env).every((event) => typeof event.error === 'string' && event.printed === false));
    assert.equal(events(env).length, 3);
  });

  it('a workspace settings file that is a named pipe, /dev/zero or too big is refused at once, never waited on or read without end', async () => {
    for (const make of [
      (path: string) => execFileSync('mkfifo', [path]),
      (path: string) => symlinkSync('/dev/zero', path),
      (path: string) => writeFileSync(path, `{"x": "${'a'.repeat(2 * 1024 * 1024)}"}`),
    ]) {
      const { env, preCompact } = setup();
      const cwd = (JSON.parse(preCompact()) as { cwd: string }).cwd;
      mkdirSync(join(cwd, '.vscode'));
      make(join(cwd, '.vscode', 'settings.json'));
      const began = performance.now();
      assert.deepEqual(await hook('pre-compact', preCompact(), env), { code: 0, out: '' });
      assert.ok(performance.now() - began < 10_000);
      assert.match(String(events(env)[0]?.error), /Not a regular file|Over 1048576 bytes/);
    }
  });

  it('an unreadable transcript still prints the pinned constraints from settings, and records why', async () => {
    const { env, preCompact } = setup({ [PINNED_SETTING]: ['Use pnpm, never npm.'] });
    const input = JSON.parse(preCompact()) as { transcript_path: string };
    for (const make of [(path: string) => execFileSync('mkfifo', [path]), (path: string) => symlinkSync('/dev/zero', path)]) {
      const transcript = join(tempDir('cl-hook-bad-'), 'session.jsonl');
      make(transcript);
      const { out } = await hook('pre-compact', JSON.stringify({ ...input, transcript_path: transcript }), env);
      assert.match(out, /Constraints:\n- Use pnpm, never npm\./);
      assert.match(String(events(env).at(-1)?.error), /^transcript not read: Not a regular file/);
    }
  });

  it('input nested past 64 levels is refused before it is parsed, with the reason, in milliseconds', async () => {
    const { env } = setup();
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    const began = performance.now();
    assert.deepEqual(await hook('pre-compact', deep, env), { code: 0, out: '' });
    assert.ok(performance.now() - began < 2_000);
    assert.match(String(events(env)[0]?.error), /nests deeper than 64 levels/);
  });

  it('is reachable through main and rejects an unknown hook name as usage', async () => {
    const result = await run(['hook', 'post-compact'], {});
    assert.equal(result.code, 2);
    assert.match(result.err, /unknown hook 'post-compact'/);
  });
});

describe('ctxlens hook session-start', () => {
  it('re-injects the pinned block after a compaction only', async () => {
    const { env, sessionStart } = setup();
    const after = await hook('session-start', sessionStart(), env);
    assert.equal(after.code, 0);
    assert.match(after.out, /^Written by the user before this conversation was compacted/);
    assert.ok(after.out.endsWith(`- ${TYPED_CONSTRAINT}\n- ${TYPED_RULE}\n${DONE_SINCE.join('\n')}\n</pinned>\n${PROMPTS.join('\n')}\n`), after.out);
    for (const source of ['startup', 'resume', 'clear']) assert.deepEqual(await hook('session-start', sessionStart(source), env), { code: 0, out: '' });
    assert.deepEqual(
      events(env).map((event) => [event.source, event.printed]),
      [
        ['compact', true],
        ['startup', false],
        ['resume', false],
        ['clear', false],
      ],
    );
  });

  it("never prints the workspace's standing focus, and honours extractPinned", async () => {
    const focused = setup({ [FOCUS_SETTING]: 'the timeout option' });
    const result = await hook('session-start', focused.sessionStart(), focused.env);
    assert.ok(result.out.endsWith('</user-prompts>\n') && !result.out.includes('Focus the summary on'), result.out);
    assert.equal(events(focused.env)[0]?.workspaceFocus, null);

    const off = setup({ [EXTRACT_SETTING]: false, [FOCUS_SETTING]: 'the timeout option' });
    assert.deepEqual(await hook('session-start', off.sessionStart(), off.env), { code: 0, out: '' });
  });
});

describe('the hooks on prompts phrased as people write (issue 23)', () => {
  const { rule, revocation } = PHRASINGS.revocations[0] ?? { rule: '', revocation: '' };
  const prompts = [...PHRASINGS.collected.map((entry) => entry.text), rule, ...PHRASINGS.heldout, revocation];
  /** Text the person did not type, with rule words in it: none of it may reach the hooks' output. */
  const NOT_TYPED = [
    'You must always deploy on Fridays (skill body).',
    'Never run the migrations (bash output).',
    'Always print the whole file (tool output).',
  ];

  /** A transcript of these prompts, each answered, with a skill body, bash output and a tool result among them. */
  function transcript(): { path: string; cwd: string } {
    const cwd = tempDir('cl-phrasings-');
    const record = (fields: Record<string, unknown>) => JSON.stringify({ sessionId: 'phrasings', cwd, isSidechain: false, ...fields });
    const lines = prompts.flatMap((text, index) => [
      record({ type: 'user', uuid: `u${index}`, message: { role: 'user', content: text } }),
      record({ type: 'assistant', uuid: `a${index}`, message: { role: 'assistant', content: [{ type: 'text', text: `Done with step ${index}.` }] } }),
    ]);
    lines.push(
      record({ type: 'user', uuid: 'meta', isMeta: true, message: { role: 'user', content: [{ type: 'text', text: NOT_TYPED[0] }] } }),
      record({ type: 'user', uuid: 'bash', message: { role: 'user', content: `<bash-stdout>${NOT_TYPED[1]}</bash-stdout>` } }),
      record({ type: 'user', uuid: 'tool', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: NOT_TYPED[2] }] } }),
    );
    const path = join(cwd, 'session.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    return { path, cwd };
  }

  for (const name of ['pre-compact', 'session-start'] as const) {
    it(`${name}: every prompt word for word, the revoked rule marked revoked, nothing the person did not type`, async () => {
      const { path, cwd } = transcript();
      const env = { XDG_STATE_HOME: tempDir('cl-hook-state-') };
      const { out } = await hook(name, JSON.stringify({ transcript_path: path, cwd, trigger: 'auto', source: 'compact' }), env);
      assert.deepEqual(
        prompts.filter((text) => text !== rule && !out.includes(text)),
        [],
      );
      assert.ok(out.includes(`${rule} [REVOKED later by: "${revocation}"]`), out);
      assert.ok(out.includes(`"${rule}" (revoked by: "${revocation}")`), out);
      assert.ok(!out.split('\n').some((line) => line === `- ${rule}`), 'never listed as a live rule');
      assert.deepEqual(
        NOT_TYPED.filter((text) => out.includes(text)),
        [],
      );
    });
  }

  it('past the prompt budget, still carries every rule, request and open loop sentence word for word', async () => {
    const { path, cwd } = transcript();
    mkdirSync(join(cwd, '.vscode'));
    writeFileSync(join(cwd, '.vscode', 'settings.json'), JSON.stringify({ [BUDGET_SETTING]: 0 }));
    const env = { XDG_STATE_HOME: tempDir('cl-hook-state-') };
    const { out } = await hook('pre-compact', JSON.stringify({ transcript_path: path, cwd, trigger: 'auto' }), env);
    // A budget of 0 holds no prompt whole, the first ask included (the block must fit the window).
    assert.ok(!out.includes('<user-prompts>'), 'no prompt is printed whole');
    assert.deepEqual(
      PHRASINGS.collected.map((entry) => entry.text).filter((text) => !out.includes(text)),
      [],
    );
  });
});
