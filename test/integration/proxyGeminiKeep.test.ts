// The panel's keep/drop reach the real Gemini CLI's requests, which name no session: `ctxlens run
// -- gemini` from the shipped bundle (every runtime, cold and warm) against the offline Gemini API
// stand-in. Mid-run the panel's file for the chat appears, as the extension writes it: it lists the
// chat's tool call ids as its requests carry them, drops the second read and keeps the first. What
// the stand-in receives afterwards has the dropped read as a stub and the kept one whole, while
// the proxy's batch stubs the other stale reads; the events say the drop was the person's.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { panelInstructionsSchema } from '../../src/contracts/panelInstructions';
import { readProxyEvents } from '../../src/proxy/events';
import { panelDir } from '../../src/proxy/panelInstructions';
import { runOutcome } from '../support/cliRun';
import { call, reply, startFakeGemini, text, type GeminiRequest, type LoggedRequest } from '../support/fake-gemini';
import { ensureGeminiCli, geminiEnv, promptArgs, writeGeminiSettings } from '../support/geminiCli';
import { eachShippedPass } from '../support/shippedCli';

const FILES = ['alpha', 'beta', 'gamma'];
const READS = 9;
/** As in proxyGemini.test.ts: the trigger (20k) is crossed after about eight reads. */
const LIVE = ['--window', '40000', '--trigger-percent', '50', '--target-percent', '30', '--min-batch-tokens', '500'];

const callIds = (request: GeminiRequest): string[] =>
  request.contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionResponse?.id ? [part.functionResponse.id] : [])));
const outputs = (request: GeminiRequest): Map<string, string> =>
  new Map(
    request.contents.flatMap((content) =>
      (content.parts ?? []).flatMap((part) =>
        part.functionResponse?.id ? [[part.functionResponse.id, JSON.stringify(part.functionResponse.response)] as const] : [],
      ),
    ),
  );

/** What the extension's PanelInstructionsWriter leaves: the contract's shape, written to a temp name and renamed. */
function writePanelFile(stateDir: string, session: string, ids: readonly string[], keep: string, drop: string): void {
  const dir = panelDir(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = panelInstructionsSchema.parse({ v: 1, agentSession: session, time: new Date().toISOString(), keep: [keep], drop: [drop], toolCalls: ids });
  const temp = join(dir, `.${session}.tmp`);
  writeFileSync(temp, JSON.stringify(file), { mode: 0o600 });
  renameSync(temp, join(dir, `${session}.json`));
}

describe("the panel's keep/drop with the real Gemini CLI, whose requests name no session", () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-proxy-gemkeep-'));
  const cwd = join(root, 'project');
  const bin = join(root, 'bin');

  before(() => {
    const entry = ensureGeminiCli();
    mkdirSync(cwd, { recursive: true });
    for (const name of FILES)
      writeFileSync(join(cwd, `${name}.txt`), Array.from({ length: 120 }, (_, line) => `${name}${line} = ${line} * 2 # the ${name} table\n`).join(''));
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'gemini'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --no-warnings ${JSON.stringify(entry)} "$@"\n`);
    chmodSync(join(bin, 'gemini'), 0o755);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a read dropped in the panel goes as a stub, a kept one whole, on every runtime cold and warm', { timeout: 600_000 }, async () => {
    let index = 0;
    await eachShippedPass(async (pass) => {
      const home = join(root, `home-${index}`);
      const stateDir = join(root, `state-${index++}`);
      const session = randomUUID();
      let kept = '';
      let dropped = '';
      const steps = Array.from({ length: READS }, (_, read) => ({ request }: { request: GeminiRequest }) => {
        // After three reads the person keeps the first and drops the second in the panel.
        if (read === 3) {
          const ids = callIds(request);
          [kept, dropped] = [ids[0] ?? '', ids[1] ?? ''];
          writePanelFile(stateDir, session, ids, kept, dropped);
        }
        return reply(call('read_file', { file_path: `${FILES[read % FILES.length]}.txt` }));
      });
      const fake = await startFakeGemini({
        scenario: { prompts: [{ prompt: 'Check the tables.', steps: [...steps, () => reply(text('Both tables look fine.'))] }] },
      });
      writeGeminiSettings(home);
      const env = { ...geminiEnv({ home, baseUrl: fake.url }), PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, ...pass.env };
      try {
        const run = await pass.run(['run', '--state-dir', stateDir, ...LIVE, '--', 'gemini', ...promptArgs('Check the tables.')], {
          cwd,
          env,
          timeoutMs: 120_000,
        });
        assert.equal(run.code, 0, runOutcome(run));
        assert.match(run.stdout, /Both tables look fine/);
        assert.equal(fake.errors.length, 0, fake.errors.map((error) => error.message).join('\n'));
        assert.ok(kept && dropped, 'the panel file was written with two call ids');
        const read = await readProxyEvents(join(stateDir, 'events.jsonl'));
        assert.ok(read.ok);
        const said = read.value.map((event) => `${event.action}: ${event.reason ?? ''}`).join('\n');
        assert.ok(
          read.value.some((event) => /1 dropped by you/.test(event.reason ?? '')),
          `the drop is the person's\n${said}`,
        );

        const turns = fake.requests.filter((request) => request.kind === 'turn');
        const last = outputs((turns.at(-1) as LoggedRequest).body as GeminiRequest);
        assert.match(last.get(dropped) ?? '', /\[DROPPED\] /, `the dropped read is a stub\n${said}`);
        assert.doesNotMatch(last.get(dropped) ?? '', /# the beta table/);
        assert.match(last.get(kept) ?? '', /# the alpha table/, 'the kept read goes whole');
        // The batch stubbed other stale reads: the keep is what held the first one whole.
        const stubbed = [...last.entries()].filter(([id, output]) => id !== dropped && output.includes('ctx-lens:') && !output.includes('# the '));
        assert.ok(stubbed.length >= 1, `the proxy stubbed other stale reads (${stubbed.length})\n${said}`);
        console.log(
          `panel keep/drop with Gemini CLI [${pass.label}]: dropped ${dropped} is a stub, kept ${kept} whole, ${stubbed.length} other reads stubbed by the batch`,
        );
      } finally {
        await fake.stop();
      }
    });
  });
});
