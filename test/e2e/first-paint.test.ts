// First paint on a 100 MB session (issue 14), in real VS Code: a long session that was compacted
// near its end, so only the last megabyte is live. The status bar and the panel's gauge show the
// exact fill from the tail read; the breakdown and the map follow from the live context, with a
// visible "reading" state meanwhile. Prints the figures a user pays for beside the same on a 1 MB
// session; asserts only bounds that hold on a loaded two-core machine (the figures are the report).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTranscript, MB, template } from '../../bench/support/transcripts';
import { readFill } from '../../src/sessions/claude-code';
import { encodeProjectDirName } from '../../src/sessions/claude-code/paths';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame } from '../support/workbench';

/** Far above the ≤ 1 s target: only a hang or a full-file read fails this. */
const BOUND_MS = 10_000;
const SESSION_ID = '9960bbf4-9712-4901-9c1e-600f03da49ad';

interface Figures {
  /** The extension's own figure: activation to the first fill shown (its log says it). */
  hostMs: number;
  statusBarMs: number;
  /** From the panel's webview rendering its first state to the gauge showing the exact fill. */
  gaugeMs: number;
  mapMs: number;
}

/** "First fill shown N ms after activation" from the extension's log in the throwaway profile. */
function hostFigure(profileDir: string): number {
  const logs = readdirSync(profileDir, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('Context Lens.log'));
  for (const log of logs) {
    const match = /First fill shown (\d+) ms after activation/.exec(readFileSync(join(profileDir, log), 'utf8'));
    if (match) return Number(match[1]);
  }
  return Number.NaN;
}

const scratch = mkdtempSync(join(tmpdir(), 'context-lens-first-paint-'));

/** A workspace with one session of `bytes`, the last `liveBytes` after a compaction. */
function session(name: string, bytes: number): { workspace: string; claudeConfigDir: string; transcript: string } {
  const workspace = join(scratch, name, 'workspace');
  const claudeConfigDir = join(scratch, name, 'claude');
  const projectDir = join(claudeConfigDir, 'projects', encodeProjectDirName(workspace));
  mkdirSync(workspace, { recursive: true });
  mkdirSync(projectDir, { recursive: true });
  const transcript = join(projectDir, `${SESSION_ID}.jsonl`);
  buildTranscript(template(), transcript, { bytes, liveBytes: 1 * MB });
  return { workspace, claudeConfigDir, transcript };
}

async function measure(name: string, bytes: number): Promise<Figures> {
  const { workspace, claudeConfigDir, transcript } = session(name, bytes);
  const expected = await readFill(transcript);
  assert.ok(expected.ok);
  const percent = `${Math.round((expected.value.fill.usedTokens / expected.value.fill.windowTokens) * 100)}%`;
  const summary = `${expected.value.fill.usedTokens.toLocaleString('en-US')} / ${expected.value.fill.windowTokens.toLocaleString('en-US')} tokens`;
  const workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir });
  try {
    const { page } = workbench;
    // From the workbench being ready (the extension activates on startup) to our status bar item.
    const started = performance.now();
    await statusBarItem(page).filter({ hasText: percent }).waitFor({ timeout: BOUND_MS });
    const statusBarMs = performance.now() - started;
    // From the panel's webview showing its first state to the gauge's exact fill, then to the map.
    await runCommand(page, 'Context Lens: Open Panel');
    const frame = await webviewFrame(page);
    const rendered = performance.now();
    await frame.locator('[data-testid="fill-summary"]', { hasText: summary }).waitFor({ timeout: BOUND_MS });
    const gaugeMs = performance.now() - rendered;
    await frame.locator('[data-testid="region-row"]').first().waitFor({ timeout: 60_000 });
    const mapMs = performance.now() - rendered;
    // Once read, nothing says it is still reading.
    assert.equal(await frame.locator('[data-testid="context-loading"]').isVisible(), false);
    await screenshot(page, `first-paint-${name}`);
    return { hostMs: hostFigure(workbench.server.profileDir), statusBarMs, gaugeMs, mapMs };
  } finally {
    await workbench.close();
  }
}

describe('first paint on a 100 MB session, in code-server', { timeout: 300_000 }, () => {
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('shows the exact fill in the status bar and the gauge first, then the map, on 1 MB and on 100 MB alike', async () => {
    const small = await measure('1mb', 1 * MB);
    const large = await measure('100mb', 100 * MB);
    const row = (label: string, figures: Figures) => `| ${label} | ${figures.hostMs} ms | ${figures.statusBarMs.toFixed(0)} ms | ${figures.gaugeMs.toFixed(0)} ms | ${figures.mapMs.toFixed(0)} ms |`;
    console.log(
      [
        'first paint: extension activation → first fill shown (its log); workbench ready → status bar; panel rendered → gauge exact / map',
        '| session | activation → fill | status bar | panel gauge | panel map |',
        '|---|---|---|---|---|',
        row('1 MB', small),
        row('100 MB', large),
      ].join('\n'),
    );
    assert.ok(Number.isFinite(large.hostMs), 'the extension logged its first fill');
    assert.ok(large.hostMs < BOUND_MS, `first fill on 100 MB ${large.hostMs} ms after activation`);
    assert.ok(large.gaugeMs < BOUND_MS, `gauge on 100 MB in ${large.gaugeMs.toFixed(0)} ms`);
    assert.ok(large.statusBarMs < BOUND_MS, `status bar on 100 MB in ${large.statusBarMs.toFixed(0)} ms`);
  });
});
