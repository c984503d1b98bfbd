import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { PINNED_SETTING, runHook } from '../../../src/cli/hook';
import { hookEventsPath } from '../../../src/sessions/claude-code/hookEvents';
import { copyScenario, run } from './support';

// Hook inputs shaped as Claude Code sends them (design notes §3), pointing at a copied transcript
// whose first prompt says "never modify config/prod.yaml" and "keep the public API backwards compatible".
function setup(settings?: string) {
  const copy = copyScenario('multi-prompt');
  const cwd = mkdtempSync(join(tmpdir(), 'cl-hook-cwd-'));
  if (settings !== undefined) {
    mkdirSync(join(cwd, '.vscode'));
    writeFileSync(join(cwd, '.vscode', 'settings.json'), settings);
  }
  const env = { XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'cl-hook-state-')) };
  const base = { session_id: copy.sessionId, transcript_path: copy.transcript, cwd };
  return { env, preCompact: { ...base, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' }, sessionStart: (source: string) => ({ ...base, hook_event_name: 'SessionStart', source }) };
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

describe('context-lens hook pre-compact', () => {
  it('prints the configured and extracted constraints with the keep-verbatim line, and records the event', async () => {
    const { env, preCompact } = setup(`{
      // JSON with comments, as VS Code writes it; a URL's // is not a comment
      "docs": "https://example.com/a",
      "${PINNED_SETTING}": ["Use pnpm, never npm.",],
    }`);
    const result = await hook('pre-compact', JSON.stringify(preCompact), env);
    assert.equal(result.code, 0);
    assert.match(result.out, /^Keep the pinned block below verbatim in the summary/);
    const lines = result.out.split('\n');
    assert.deepEqual(lines.slice(1, 5), ['<pinned>', 'Constraints:', '- Use pnpm, never npm.', '- Constraints: never modify config/prod.yaml, and we must keep the public API backwards compatible.']);
    assert.equal(lines[5], '</pinned>');
    assert.deepEqual(events(env).map(({ hook: name, trigger, constraints, printed }) => ({ name, trigger, constraints, printed })), [{ name: 'pre-compact', trigger: 'auto', constraints: 2, printed: true }]);
  });

  it('prints nothing and exits 0 on bad input, logging the error', async () => {
    const { env, preCompact } = setup('{ not json');
    assert.deepEqual(await hook('pre-compact', JSON.stringify(preCompact), env), { code: 0, out: '' });
    assert.deepEqual(await hook('pre-compact', '{"transcript_path": "/nonexistent.jsonl"}', env), { code: 0, out: '' });
    assert.deepEqual(await hook('pre-compact', 'garbage', env), { code: 0, out: '' });
    assert.ok(events(env).every((event) => typeof event.error === 'string' && event.printed === undefined));
  });

  it('is reachable through main and rejects an unknown hook name as usage', async () => {
    const result = await run(['hook', 'post-compact'], {});
    assert.equal(result.code, 2);
    assert.match(result.err, /unknown hook 'post-compact'/);
  });
});

describe('context-lens hook session-start', () => {
  it('re-injects the pinned block after a compaction only', async () => {
    const { env, sessionStart } = setup();
    const after = await hook('session-start', JSON.stringify(sessionStart('compact')), env);
    assert.equal(after.code, 0);
    assert.match(after.out, /^Pinned by the user before this conversation was compacted/);
    assert.match(after.out, /- Constraints: never modify config\/prod\.yaml, and we must keep the public API backwards compatible\.\n<\/pinned>\n$/);
    for (const source of ['startup', 'resume', 'clear']) assert.deepEqual(await hook('session-start', JSON.stringify(sessionStart(source)), env), { code: 0, out: '' });
    assert.deepEqual(
      events(env).map((event) => [event.source, event.printed]),
      [['compact', true], ['startup', false], ['resume', false], ['clear', false]],
    );
  });
});
