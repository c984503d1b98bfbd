// How every e2e suite on the demo starts and ends: VS Code on a copy of the demo workspace with the
// Context Lens panel open (maximised, so screenshots show the whole map and preview), then the
// browser, code-server and both temporary folders gone.
import { rmSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import type { DemoSession } from './demoSession';
import { runCommand, startWorkbench, webviewFrame, type Workbench } from './workbench';

export interface DemoPanel {
  workbench: Workbench;
  page: Page;
  frame: Frame;
}

export async function openDemoPanel(workspace: string, demo: DemoSession, options: { theme: string; maximise: boolean }): Promise<DemoPanel> {
  const workbench = await startWorkbench({ workspace, theme: options.theme, claudeConfigDir: demo.claudeConfigDir });
  const page = workbench.page;
  await runCommand(page, 'Context Lens: Open Panel');
  if (options.maximise) await runCommand(page, 'View: Toggle Maximized Panel');
  return { workbench, page, frame: await webviewFrame(page) };
}

export async function closeDemoPanel(workbench: Workbench | undefined, workspace: string, demo: DemoSession): Promise<void> {
  await workbench?.close();
  rmSync(demo.claudeConfigDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
}

/** Runs Compact… and answers its focus box with `focus`, as a person does; the preview follows. */
export async function compactWithFocus(page: Page, focus: string): Promise<void> {
  await runCommand(page, 'Context Lens: Compact…');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(focus);
  await input.press('Enter');
}

/** Waits until the compaction's progress notification has gone (it covers what a screenshot shows). */
export async function compactionProgressGone(page: Page): Promise<void> {
  await page.locator('.notifications-toasts', { hasText: 'Compacting with' }).waitFor({ state: 'hidden', timeout: 15_000 });
}
