// Smoke test of the recording pipeline: the pinned Claude Code CLI, run offline against the API
// stand-in in a throwaway HOME, writes a transcript with a user and an assistant record, and the
// stand-in sees its request. The first run installs the CLI into the tool cache (npm registry).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureClaudeCli, printArgs, projectDir, runClaude, sessionIds } from '../support/claudeCli';
import { type FakeAnthropic, reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';

interface TranscriptLine {
  type: string;
  message?: { role: string; content: unknown; usage?: { output_tokens: number } };
}

describe('real Claude Code CLI against the stand-in', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-cli-smoke-'));
  const cwd = join(root, 'project');
  const configDir = join(root, 'config');
  let binary: string;
  let server: FakeAnthropic;

  before(async () => {
    binary = ensureClaudeCli();
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'hello.txt'), 'hello from the fixture\n');
    server = await startFakeAnthropic({
      scenario: {
        turns: [() => reply(toolUse('Read', { file_path: join(cwd, 'hello.txt') })), ({ toolResults }) => reply(text(`Read ${toolResults.length} file.`))],
      },
    });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes a transcript for one prompt', { timeout: 60_000 }, async () => {
    const run = await runClaude({ binary, args: printArgs({ prompt: 'Read hello.txt' }), cwd, configDir, baseUrl: server.url, timeoutMs: 55_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'Read 1 file.');

    const ids = sessionIds(configDir, cwd);
    assert.equal(ids.length, 1);
    const lines = readFileSync(join(projectDir(configDir, cwd), `${ids[0]}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TranscriptLine);
    assert.ok(lines.some((line) => line.type === 'user' && line.message?.content === 'Read hello.txt'));
    assert.ok(lines.some((line) => line.type === 'assistant' && (line.message?.usage?.output_tokens ?? 0) > 0));

    const main = server.requests.filter((request) => request.kind === 'main');
    assert.equal(main.length, 2, 'one call for the tool, one after its result');
    assert.match(JSON.stringify(main[1]?.body), /hello from the fixture/);
  });
});
