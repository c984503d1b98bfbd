// Runs a stand-in `claude` executable that echoes its stdin, to check the prompt goes in on stdin
// (then closed) and the output comes back; a failing stand-in must yield an explicit error.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ClaudeCliSummarizer } from '../../../src/summarizers/claudeCli';
import type { SummaryRequest } from '../../../src/engine/summarizers/types';
import { tempDir } from '../../support/tempDir';

const request: SummaryRequest = { items: [], focus: '', pinned: { constraints: [], openLoops: [] }, markers: [], maxTokens: 100, prompt: 'PROMPT-BODY' };

function script(body: string): string {
  const folder = tempDir('claude-cli-');
  const path = join(folder, 'claude');
  writeFileSync(path, `#!/usr/bin/env node\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('ClaudeCliSummarizer', () => {
  it('passes the prompt on stdin and returns stdout', async () => {
    const path = script(
      `let input = ''; process.stdin.on('data', (d) => (input += d)); process.stdin.on('end', () => console.log('summary of ' + input + ' args ' + process.argv.slice(2).join(' ')));`,
    );
    const result = await new ClaudeCliSummarizer({ path, model: 'haiku' }).summarize(request, new AbortController().signal);
    assert.deepEqual(result, { ok: true, value: 'summary of PROMPT-BODY args -p --output-format text --model haiku' });
  });

  it('reports a non-zero exit with stderr', async () => {
    const path = script(`console.error('not logged in'); process.exit(3);`);
    const result = await new ClaudeCliSummarizer({ path }).summarize(request, new AbortController().signal);
    assert.deepEqual(result, { ok: false, error: 'claude-cli exited with 3: not logged in' });
  });

  it('reports a missing executable and honours abort', async () => {
    const missing = await new ClaudeCliSummarizer({ path: '/nonexistent/claude' }).summarize(request, new AbortController().signal);
    assert.match(missing.ok ? '' : missing.error, /ENOENT/);
    const controller = new AbortController();
    const pending = new ClaudeCliSummarizer({ path: script('setTimeout(() => {}, 10000);') }).summarize(request, controller.signal);
    controller.abort();
    assert.equal((await pending).ok, false);
  });
});
