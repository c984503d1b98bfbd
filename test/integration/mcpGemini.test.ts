// The MCP tools' session rule (src/mcp/sessionOfCall.ts) from inside a real CLI: Gemini CLI 0.61
// starts `ctxlens mcp` (the shipped bundle) from its settings' `mcpServers` and names no session to
// it, so the server asks the proxy's events which conversations it served lately. Two runs of
// `ctxlens run -- gemini …` share one state folder, as two terminals of one person do. The first,
// alone, calls compact_context: the call is that conversation's, and its next request reaches the
// model with the stale reads stubbed. The second starts another conversation within the window
// and calls it too: the server cannot tell which of the two called, so it refuses, saying why, and
// nothing is compacted — it never guesses between two sessions of the same folder.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { call, reply, startFakeGemini, text, type GeminiRequest, type Step } from '../support/fake-gemini';
import { ensureGeminiCli, geminiEnv, promptArgs, writeGeminiSettings } from '../support/geminiCli';
import { runShippedOnce, shippedBundle } from '../support/shippedCli';

const FILES = ['alpha', 'beta', 'gamma'];
/** Below the trigger (the proxy never compacts by itself here), above half of it: each request is read and named by its conversation. */
const LIVE = ['--window', '24000', '--trigger-percent', '90', '--target-percent', '30', '--min-batch-tokens', '200'];

/** The name Gemini CLI gives our MCP server's compact_context among the request's declarations. */
function compactToolOf(request: GeminiRequest): string {
  const names = (request.tools ?? []).flatMap((tool) => {
    const list = (tool as { functionDeclarations?: { name?: string }[] }).functionDeclarations ?? [];
    return list.flatMap((declaration) => (declaration.name ? [declaration.name] : []));
  });
  const found = names.find((name) => name.endsWith('compact_context'));
  assert.ok(found, `the request offers compact_context: ${names.join(', ')}`);
  return found;
}

const responseText = (results: readonly unknown[]): string => JSON.stringify(results);

describe('the MCP tools inside the real Gemini CLI: the call is the only live conversation, or refused', { timeout: 600_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-mcp-gemini-'));
  const cwd = join(root, 'project');
  const bin = join(root, 'bin');
  const state = join(root, 'state');

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

  /** One `ctxlens run -- gemini` that reads the tables and calls compact_context; what the tool answered and what the next request carried. */
  async function session(label: string): Promise<{ answered: string; stubsAfter: number }> {
    let answered = '';
    let stubsAfter = -1;
    const steps: Step[] = [
      ...Array.from({ length: 6 }, (_, read) => () => reply(call('read_file', { file_path: `${FILES[read % FILES.length]}.txt` }))),
      ({ request }) => reply(call(compactToolOf(request), { reason: 'finished reading the tables', focus: '' })),
      ({ request, results }) => {
        answered = responseText(results);
        stubsAfter = JSON.stringify(request.contents).split('[COMPACTED]').length - 1;
        return reply(text('Compaction asked for.'));
      },
    ];
    const prompt = `Read the tables, then compact (${label}).`;
    const fake = await startFakeGemini({ scenario: { prompts: [{ prompt, steps }] } });
    const home = join(root, `home-${label}`);
    // The server as a person registers it: the shipped CLI, the proxy's state folder named.
    writeGeminiSettings(home, {
      extra: { mcpServers: { 'context-lens': { command: process.execPath, args: [shippedBundle(), 'mcp', '--agent', 'gemini', '--state-dir', state] } } },
    });
    try {
      const run = await runShippedOnce(['run', '--state-dir', state, ...LIVE, '--', 'gemini', ...promptArgs(prompt)], {
        cwd,
        env: { ...geminiEnv({ home, baseUrl: fake.url }), PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
        timeoutMs: 180_000,
      });
      assert.equal(run.code, 0, runOutcome(run));
      assert.match(run.stdout, /Compaction asked for/);
      assert.equal(fake.errors.length, 0, fake.errors.map((error) => error.message).join('\n'));
    } finally {
      await fake.stop();
    }
    return { answered, stubsAfter };
  }

  it('alone, the call is its conversation and the next request carries stubs; with a second conversation in the window, refused and nothing compacted', async () => {
    const first = await session('first');
    assert.match(first.answered, /Compaction requested \(/, first.answered);
    assert.ok(first.stubsAfter >= 2, `the next request carries stubs (${first.stubsAfter})`);

    const second = await session('second');
    assert.match(second.answered, /cannot tell which conversation called this tool/, second.answered);
    assert.match(second.answered, /the proxy served 2 conversations in the last 10 minutes\. Nothing was done\./);
    assert.equal(second.stubsAfter, 0, 'nothing compacted after a refusal');
  });
});
