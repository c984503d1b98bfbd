// First paint of a session the panel picks up, in real VS Code (code-server): the panel is open on
// a workspace without a session, a transcript of the given size appears in the workspace's project
// folder, and recorders in the webview and the workbench stamp what shows when. Shared by the e2e
// test (correctness: the exact fill first, "reading" meanwhile, the panel answering a click) and
// bench/firstPaint.bench.ts (the figures, several runs).
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { buildTranscript, MB, template } from '../../bench/support/transcripts';
import { readFill } from '../../src/sessions/claude-code/fill';
import { encodeProjectDirName } from '../../src/sessions/claude-code/paths';
import { runCommand, screenshot, startWorkbench, STATUS_BAR_ITEM_ID, webviewFrame } from './workbench';

/** Far above the 1 s target: only a hang or a read of the whole file on the host thread gets near it. */
export const FIRST_PAINT_BOUND_MS = 10_000;
const SESSION_ID = '9960bbf4-9712-4901-9c1e-600f03da49ad';

/** What the webview showed at one moment (a recorder entry). */
export interface PanelMoment {
  /** Date.now() in the webview: the same clock as the test's. */
  t: number;
  title: string | null;
  summary: string | null;
  loading: boolean;
  /** Rows of the region map on screen. */
  rows: number;
  empty: string | null;
}

export interface FirstPaint {
  /** Milliseconds from the transcript appearing in the project folder. */
  pickedUpMs: number;
  gaugeMs: number;
  statusBarMs: number;
  mapMs: number;
  /** The first moment with the exact fill said "reading" and showed no map yet. */
  gaugeBeforeMap: boolean;
  /** Texts the panel showed between the pick-up and the exact fill (a misleading "waiting…" would show here). */
  between: string[];
  /** "Select Session" clicked in the panel the moment it said "reading": the quick pick opened after this many ms. */
  clickAnsweredMs: number;
  clickAnsweredWhileLoading: boolean;
  /** VS Code's own figure for the extension (Developer: Show Running Extensions), when asked for. */
  activationMs: number;
  moments: PanelMoment[];
}

export interface FirstPaintOptions {
  scratch: string;
  name: string;
  bytes: number;
  /** How much of the file follows the last compaction (default 1 MB). */
  liveBytes?: number;
  /** Take screenshots (test/e2e/artifacts): `<name>-reading` as soon as the panel says it reads (best effort: it may be done by then), `<name>` once the map is shown. */
  screenshotName?: string;
  /** Also read the extension's activation time from VS Code's Running Extensions view (a few seconds more). */
  activation?: boolean;
}

// The recorders run in the pages. The tests are type-checked without the DOM library, so they reach
// the document through the element Playwright hands them (as test/e2e/tour.test.ts does).

/** Stamps every change of what the panel shows; clicks "Select Session" the first moment it says it reads. */
async function recordPanel(frame: Frame): Promise<void> {
  await frame.locator('body').evaluate((body) => {
    const document = body.ownerDocument;
    const record: PanelRecord = { moments: [], clickedAt: 0 };
    document.defaultView.firstPaint = record;
    const shown = (element: typeof body | null): boolean => element !== null && element.checkVisibility();
    const text = (selector: string): string | null => {
      const element = document.querySelector(selector);
      return shown(element) ? (element.textContent ?? '') : null;
    };
    const take = (): void => {
      const loading = shown(document.querySelector('[data-testid="context-loading"]'));
      const moment: PanelMoment = {
        t: Date.now(),
        title: text('[data-testid="session-title"]'),
        summary: text('[data-testid="fill-summary"]'),
        loading,
        rows: [...document.querySelectorAll('.region-row[data-id]')].filter(shown).length,
        empty: text('[data-testid="empty"]'),
      };
      const last = record.moments.at(-1);
      if (
        !last ||
        last.title !== moment.title ||
        last.summary !== moment.summary ||
        last.loading !== moment.loading ||
        last.rows !== moment.rows ||
        last.empty !== moment.empty
      )
        record.moments.push(moment);
      if (loading && record.clickedAt === 0) {
        record.clickedAt = Date.now();
        [...document.querySelectorAll('vscode-button')].find((button: typeof body) => button.textContent?.includes('Select Session'))?.click();
      }
    };
    take();
    new document.defaultView.MutationObserver(take).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** Stamps the first time the workbench shows the status bar item with `text`, and the first time the session picker opens. */
async function recordWorkbench(page: Page, args: { itemId: string; text: string }): Promise<void> {
  await page.locator('body').evaluate((body, { itemId, text }) => {
    const document = body.ownerDocument;
    const record: WorkbenchRecord = { statusBarAt: 0, quickPickAt: 0 };
    document.defaultView.firstPaint = record;
    new document.defaultView.MutationObserver(() => {
      if (record.statusBarAt === 0 && document.getElementById(itemId)?.textContent?.includes(text)) record.statusBarAt = Date.now();
      const picker = document.querySelector('.quick-input-widget');
      if (record.quickPickAt === 0 && picker?.checkVisibility() && picker.textContent?.includes('Select Session')) record.quickPickAt = Date.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, args);
}

interface PanelRecord {
  moments: PanelMoment[];
  clickedAt: number;
}

interface WorkbenchRecord {
  statusBarAt: number;
  quickPickAt: number;
}

async function recordOf<T>(target: Page | Frame): Promise<T> {
  return (await target.locator('body').evaluate((body) => body.ownerDocument.defaultView.firstPaint)) as T;
}

/** "Activation: 130ms" on our row of Developer: Show Running Extensions. */
async function activationTime(page: Page): Promise<number> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.monaco-list-row', { hasText: 'Context Lens' }).filter({ hasText: 'Activation' }).first();
  await row.waitFor({ timeout: 30_000 });
  const match = /Activation: (\d+)\s*ms/.exec(await row.innerText());
  return match ? Number(match[1]) : Number.NaN;
}

const since = (t0: number, t: number | undefined): number => (t === undefined || t === 0 ? Number.NaN : t - t0);

export async function measureFirstPaint(options: FirstPaintOptions): Promise<FirstPaint> {
  const root = join(options.scratch, options.name);
  const workspace = join(root, 'workspace');
  const claudeConfigDir = join(root, 'claude');
  const projectDir = join(claudeConfigDir, 'projects', encodeProjectDirName(workspace));
  const staging = join(root, 'staging');
  for (const dir of [workspace, projectDir, staging]) mkdirSync(dir, { recursive: true });
  const built = join(staging, `${SESSION_ID}.jsonl`);
  buildTranscript(template(), built, { bytes: options.bytes, liveBytes: options.liveBytes ?? 1 * MB });
  const expected = await readFill(built);
  if (!expected.ok) throw new Error(`the built transcript has no fill: ${expected.error.message}`);
  const { usedTokens, windowTokens } = expected.value.fill;
  const summary = `${usedTokens.toLocaleString('en-US')} / ${windowTokens.toLocaleString('en-US')} tokens`;
  const percent = `${Math.round((usedTokens / windowTokens) * 100)}%`;

  // Its own history index: the first read of the file is a cold one, and nothing lands in ~/.cache.
  const workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir, env: { CONTEXT_LENS_CACHE: join(root, 'cache') } });
  try {
    const { page } = workbench;
    await runCommand(page, 'Context Lens: Open Panel');
    const frame = await webviewFrame(page);
    await frame.locator('[data-testid="empty"]', { hasText: 'No agent session found' }).waitFor({ timeout: 30_000 });
    // tsx names the recorders' inner functions through a helper of its own, which the pages lack.
    for (const target of [page, frame]) await target.evaluate('globalThis.__name ??= (fn) => fn');
    await recordWorkbench(page, { itemId: STATUS_BAR_ITEM_ID, text: percent });
    await recordPanel(frame);

    // The session appears whole, as a transcript copied in or a long session the agent resumes.
    const t0 = Date.now();
    renameSync(built, join(projectDir, `${SESSION_ID}.jsonl`));
    if (options.screenshotName) {
      await frame.locator('[data-testid="context-loading"]').waitFor({ timeout: 30_000 });
      await screenshot(page, `${options.screenshotName}-reading`);
    }
    await frame.locator('.region-row[data-id]').first().waitFor({ timeout: 120_000 });
    await frame.locator('[data-testid="context-loading"]').waitFor({ state: 'hidden', timeout: 30_000 });
    await page.locator('.quick-input-widget', { hasText: 'Select Session' }).waitFor({ timeout: 30_000 });
    if (options.screenshotName) await screenshot(page, options.screenshotName);
    await page.keyboard.press('Escape');

    const panel = await recordOf<PanelRecord>(frame);
    const bench = await recordOf<WorkbenchRecord>(page);
    const activationMs = options.activation ? await activationTime(page) : Number.NaN;
    const moments = panel.moments.filter((moment) => moment.t >= t0);
    const exact = moments.findIndex((moment) => moment.summary?.startsWith(summary));
    const gauge = moments[exact];
    const map = moments.find((moment, index) => index >= exact && moment.rows > 0);
    const pickedUpAt = moments.findIndex((moment) => moment.title !== null);
    const pickedUp = moments[pickedUpAt];
    const loadingEnd = moments.find((moment, index) => index > exact && !moment.loading);
    const between = moments
      .slice(Math.max(0, pickedUpAt), Math.max(0, exact))
      .flatMap((moment) => [moment.summary, moment.empty].filter((value): value is string => value !== null));
    return {
      pickedUpMs: since(t0, pickedUp?.t),
      gaugeMs: since(t0, gauge?.t),
      statusBarMs: since(t0, bench.statusBarAt),
      mapMs: since(t0, map?.t),
      gaugeBeforeMap: gauge !== undefined && gauge.loading && gauge.rows === 0,
      between: [...new Set(between)],
      clickAnsweredMs: since(panel.clickedAt, bench.quickPickAt),
      clickAnsweredWhileLoading: bench.quickPickAt !== 0 && loadingEnd !== undefined && bench.quickPickAt < loadingEnd.t,
      activationMs,
      moments,
    };
  } finally {
    await workbench.close();
  }
}
