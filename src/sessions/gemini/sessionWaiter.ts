// Waiting for a workspace's first Gemini CLI session. The CLI names the workspace's folder when it
// starts (projects.json gets a new entry), then writes the chat: neither folder can be watched
// ahead of time, so the workspace's possible chat folders are looked up again and listed on a short
// poll. A chat counts once it holds something to resume (a prompt); until then it is looked at again.
import { join } from 'node:path';
import { SerialRunner } from '../common/watch';
import type { SessionWaiter } from '../port';
import type { Diagnostic, SessionInfo } from '../types';
import { cwdForms, readGeminiSession } from './listing';
import { listChatFiles, projectDirsFor } from './paths';

export const GEMINI_WAIT_POLL_MS = 1_000;

export async function waitForGeminiSession(
  geminiDirs: readonly string[],
  workspacePath: string,
  found: (session: SessionInfo) => void,
  report: (diagnostic: Diagnostic) => void,
  options: { pollMs?: number } = {},
): Promise<SessionWaiter> {
  const cwds = await cwdForms(workspacePath);
  /** Chats announced already: each is announced once. */
  const announced = new Set<string>();
  let disposed = false;
  const runner = new SerialRunner(async () => {
    for (const geminiDir of geminiDirs) {
      for (const projectDir of await projectDirsFor(geminiDir, cwds)) {
        for (const path of (await listChatFiles(projectDir)).reverse()) {
          if (disposed || announced.has(path)) continue;
          const read = await readGeminiSession(path);
          // A stub or a chat not prompted yet: look again on the next poll.
          if (!read.ok || !read.value.resumable) continue;
          announced.add(path);
          found(read.value.info);
        }
      }
    }
  });
  const poll = (): void =>
    void runner
      .request()
      .catch((error: unknown) =>
        report({ severity: 'warning', code: 'io', message: `waiting for a Gemini CLI session: ${error instanceof Error ? error.message : String(error)}` }),
      );
  const timer = setInterval(poll, options.pollMs ?? GEMINI_WAIT_POLL_MS);
  await runner.request();
  return {
    where: geminiDirs.map((dir) => join(dir, 'tmp')),
    dispose: () => {
      disposed = true;
      clearInterval(timer);
    },
  };
}
