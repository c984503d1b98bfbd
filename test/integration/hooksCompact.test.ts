// Proof that the hooks steer Claude Code's own compaction: a project connected by the shipped
// `ctxlens connect` (the edit "Connect Claude Code" makes), the real CLI running `/compact` with
// `--resume`, and the stand-in seeing the pinned block in the summarisation request and again in
// the first request after it. In every pass of shippedCli.ts: the hooks run the shipped bundle
// under the minimum Node and the newest LTS, with a cold code cache and then a warm one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FOCUS_SETTING, PINNED_SETTING } from '../../src/cli/hook';
import { SETTINGS_FILE } from '../../src/sessions/claude-code/connection';
import { runOutcome } from '../support/cliRun';
import { ensureClaudeCli, printArgs, runClaude, sessionIds } from '../support/claudeCli';
import { type FakeAnthropic, lastUserText, type LoggedRequest, type MessagesRequest, reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import { eachShippedPass } from '../support/shippedCli';

const CONFIGURED = 'Never modify config/prod.yaml.';
const TYPED = 'Always keep the public API backwards compatible.';
const FOCUS = 'the retry rework';
/** Configured constraints first, then the ones found in what the person typed. */
const BLOCK = `<pinned>\nConstraints:\n- ${CONFIGURED}\n- ${TYPED}\n</pinned>`;
/** The person's prompts word for word after it (issue 23). */
const PROMPTS = `<user-prompts>\nThe user's prompts, word for word, oldest first:\n- ${TYPED} Say hello.\n</user-prompts>`;
const RUN_TIMEOUT_MS = 80_000;

const bodyOf = (request: LoggedRequest): MessagesRequest => request.body as MessagesRequest;
/** Every text the request sends in its messages, system-role reminders included. */
const messageTexts = (request: LoggedRequest): string =>
  bodyOf(request)
    .messages.flatMap((message) => (typeof message.content === 'string' ? [message.content] : message.content.map((block) => block.text ?? '')))
    .join('\n');

describe('Claude Code hooks connected by ctxlens connect, around the real CLI’s /compact', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-hooks-compact-'));
  const configDir = join(root, 'config');
  let binary: string;
  let server: FakeAnthropic;

  before(async () => {
    binary = ensureClaudeCli();
    server = await startFakeAnthropic({ scenario: { turns: [() => reply(text('Hello.'))], fallback: () => reply(text('Carrying on.')) } });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'appends the pinned block and the standing focus to /compact and re-injects the block after it, on every runtime cold and warm',
    { timeout: 480_000 },
    async () => {
      let index = 0;
      await eachShippedPass(async (pass) => {
        // A project of its own a pass, connected by the shipped `ctxlens connect` under this pass's Node:
        // the hooks then run that Node and that bundle, with this pass's code cache.
        const cwd = join(root, `project-${index}`);
        const env = { XDG_STATE_HOME: join(root, `state-${index++}`), ...pass.env };
        /** Where the README says hook runs are logged. */
        const eventsFile = join(env.XDG_STATE_HOME, 'context-lens', 'hook-events.jsonl');
        mkdirSync(join(cwd, '.vscode'), { recursive: true });
        writeFileSync(join(cwd, '.vscode', 'settings.json'), JSON.stringify({ [PINNED_SETTING]: [CONFIGURED], [FOCUS_SETTING]: FOCUS }, null, 2));
        const connected = await pass.run(['connect', cwd], { cwd, env: { ...process.env, ...env } });
        assert.equal(connected.code, 0, runOutcome(connected));
        assert.ok(
          readFileSync(join(cwd, ...SETTINGS_FILE), 'utf8').includes(JSON.stringify(pass.runtime.node).slice(1, -1)),
          'the hooks run the Node that ran connect',
        );
        const claude = async (prompt: string, resume?: string): Promise<void> => {
          const run = await runClaude({
            binary,
            args: printArgs({ prompt, ...(resume === undefined ? {} : { resume }) }),
            cwd,
            configDir,
            baseUrl: server.url,
            env,
            timeoutMs: RUN_TIMEOUT_MS,
          });
          assert.equal(run.code, 0, run.stderr);
        };
        const from = server.requests.length;

        await claude(`${TYPED} Say hello.`);
        const [sessionId] = sessionIds(configDir, cwd);
        assert.ok(sessionId);
        await claude('/compact focus on tests', sessionId);
        await claude('Carry on.', sessionId);

        const requests = server.requests.slice(from);
        const compactions = requests.filter((request) => request.kind === 'compact');
        assert.equal(compactions.length, 1);
        const compaction = compactions[0] as LoggedRequest;
        // The PreCompact hook's output follows the person's own /compact text.
        const instructions = lastUserText(bodyOf(compaction));
        assert.ok(
          instructions.includes("Additional Instructions:\nfocus on tests\n\nKeep the user's words below verbatim in the summary"),
          instructions.slice(-1500),
        );
        assert.ok(instructions.includes(`${BLOCK}\n${PROMPTS}\nFocus the summary on: ${FOCUS}\n`), instructions.slice(-1500));

        const before = requests.filter((request) => request.seq < compaction.seq && request.body !== null);
        assert.ok(before.length > 0);
        for (const request of before) {
          const body = JSON.stringify(request.body);
          assert.ok(!body.includes('<pinned>') && !body.includes(CONFIGURED), `request ${request.seq} carries the pinned block before any compaction`);
        }

        // The SessionStart hook's output reaches the fresh context as a reminder of the next request.
        const next = requests.find((request) => request.seq > compaction.seq && request.kind === 'main');
        assert.ok(next, 'no main request after the compaction');
        const sent = messageTexts(next);
        assert.ok(
          sent.includes(
            `SessionStart:compact hook success: Written by the user before this conversation was compacted; the rules, requests and open loops still apply:\n${BLOCK}\n${PROMPTS}`,
          ),
          sent,
        );

        const events = readFileSync(eventsFile, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        assert.deepEqual(
          events.map(({ hook, sessionId: id, trigger, source, focus, workspaceFocus, constraints, printed }) => ({
            hook,
            id,
            trigger,
            source,
            focus,
            workspaceFocus,
            constraints,
            printed,
          })),
          [
            {
              hook: 'pre-compact',
              id: sessionId,
              trigger: 'manual',
              source: null,
              focus: 'focus on tests',
              workspaceFocus: FOCUS,
              constraints: 2,
              printed: true,
            },
            { hook: 'session-start', id: sessionId, trigger: null, source: 'compact', focus: null, workspaceFocus: null, constraints: 2, printed: true },
          ],
        );
      });
    },
  );
});
