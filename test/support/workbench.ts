// Drives the VS Code workbench served by code-server: command palette, and the extension's webview
// content, which lives in nested iframes reachable through page.frames().
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { launchCodeServer, type RunningCodeServer } from '../../scripts/code-server/launch';
import { launchChromium } from './browser';

export const ARTIFACTS = join(__dirname, '..', 'e2e', 'artifacts');

export async function openWorkbench(page: Page, url: string): Promise<void> {
  // Only the document: its scripts (megabytes of workbench) loaded past the default 30 s at a load
  // average of 15 on 2 cores, and the workbench's own elements below say when it is ready.
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  // The status bar appears once the workbench has restored; extensions activate after that.
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
}

/**
 * Runs a command by its full palette title, e.g. "Context Lens: Open Panel". The palette lists
 * what is registered when it opens, and extension contributions arrive a moment after the
 * workbench shows, so it reopens the palette until the command appears.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 60_000): Promise<void> {
  // The palette filters on the title without its category; the row still shows the full title.
  const withoutCategory = title.includes(': ') ? title.slice(title.indexOf(': ') + 2) : title;
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('F1');
    try {
      // A webview that is still loading may take the focus back and close the palette mid-fill: retry.
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${withoutCategory}`, { timeout: 5_000 });
      await row.waitFor({ state: 'visible', timeout: 3_000 });
      await row.click();
      // The palette's rows sit over the panel's tabs: a mouse left there shows the tab's hover
      // ("Ports - 1 forwarded port") over the panel's header in every later screenshot. The
      // explorer's empty lower part has nothing to hover.
      await page.mouse.move(150, 600);
      // The palette's input and rows stay on screen a moment after the click; a quick pick or input
      // box the command opens reuses the same widget. Wait until it no longer holds the palette's
      // `>` query, so the caller never reads or types into the palette.
      const paletteShown = async (): Promise<boolean> =>
        (await input.isVisible()) && (await input.inputValue({ timeout: 1_000 }).catch(() => '')).startsWith('>');
      for (let wait = 0; wait < 100 && (await paletteShown()); wait++) await page.waitForTimeout(50);
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) throw new Error(`Command "${title}" never appeared in the palette`, { cause: error });
    }
  }
}

/** The frame holding our webview's document: the one whose #app has rendered. */
export async function webviewFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        if (await frame.locator('#app[data-ready="true"]').count()) return frame;
      } catch {
        // frame navigated or detached while we looked
      }
    }
    await page.waitForTimeout(200);
  }
  throw new Error(
    `No Context Lens webview rendered within ${timeoutMs} ms (frames: ${page
      .frames()
      .map((frame) => frame.url())
      .join(', ')})`,
  );
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The element id VS Code gives our fill item in the status bar. */
export const STATUS_BAR_ITEM_ID = 'context-lens.context-lens.contextLens.fill';

/** Our fill item in the status bar. */
export function statusBarItem(page: Page): Locator {
  return page.locator(`#workbench\\.parts\\.statusbar [id="${STATUS_BAR_ITEM_ID}"]`);
}

/** The lines the extension host has logged so far (the "Context Lens" output channel's files under the profile). */
export function hostLogLines(profileDir: string): string[] {
  const logs = (readdirSync(profileDir, { recursive: true }) as string[]).filter((name) => name.endsWith('Context Lens.log'));
  return logs.flatMap((name) => readFileSync(join(profileDir, name), 'utf8').split('\n'));
}

export interface Workbench {
  readonly server: RunningCodeServer;
  readonly browser: Browser;
  readonly page: Page;
  /** What the workbench and the webviews wrote to the browser console (warnings and errors), oldest first. */
  consoleLines(): readonly string[];
  close(): Promise<void>;
}

/** code-server with the built extension on `workspace`, and a browser page showing it. */
export async function startWorkbench(options: {
  workspace: string;
  theme: string;
  claudeConfigDir: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
}): Promise<Workbench> {
  const extensionRoot = join(__dirname, '..', '..');
  const env = { ...options.env, CLAUDE_CONFIG_DIR: options.claudeConfigDir };
  const server = await launchCodeServer({
    extensionRoot,
    workspace: options.workspace,
    theme: options.theme,
    env,
    ...(options.settings ? { settings: options.settings } : {}),
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') logged.push(`${message.type()}: ${message.text()}`.slice(0, 2000));
      if (logged.length > 500) logged.splice(0, logged.length - 500);
    });
    await openWorkbench(page, server.url);
    const opened = browser;
    const close = async () => {
      await opened.close();
      await server.stop();
      // A state the webview refused is a host bug even where the test's own checks passed (the rest was shown).
      const refused = logged.filter((line) => line.includes('Context Lens: refused'));
      if (refused.length > 0) throw new Error(`the panel refused part of the host's state:\n${refused.join('\n')}`);
    };
    return { server, browser: opened, page, consoleLines: () => logged, close };
  } catch (error) {
    await browser?.close();
    await server.stop();
    throw error;
  }
}
