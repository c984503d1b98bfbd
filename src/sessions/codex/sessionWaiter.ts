// Waiting for a workspace's first Codex session. Codex writes each rollout under
// `<CODEX_HOME>/sessions/YYYY/MM/DD/` (the local date), creating those folders as it goes, so no
// folder can be watched ahead of time: today's and yesterday's folders (a session started just
// after midnight) are listed on a short poll. A rollout is matched to the workspace by the cwd in
// its first record; one whose first record is not written yet is tried again.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalCwd } from '../common/paths';
import { SerialRunner } from '../common/watch';
import type { SessionWaiter } from '../port';
import type { Diagnostic, SessionInfo } from '../types';
import { readCodexSessionInfo } from './listing';
import { isRolloutFile, sessionsDir } from './paths';

export const CODEX_WAIT_POLL_MS = 1_000;
/** The first record (session_meta, with the cwd) is written first; past this much without it, it never comes. */
const NO_CWD_AFTER_BYTES = 256 * 1024;

const pad = (value: number): string => String(value).padStart(2, '0');

/** The dated folders a rollout started at `now` (or a day before) is in. */
export function recentDayFolders(codexHome: string, now: Date): string[] {
  return [now, new Date(now.getTime() - 24 * 60 * 60 * 1000)].map((day) =>
    join(sessionsDir(codexHome), String(day.getFullYear()), pad(day.getMonth() + 1), pad(day.getDate())),
  );
}

export async function waitForCodexSession(
  codexHomes: readonly string[],
  workspacePath: string,
  found: (session: SessionInfo) => void,
  report: (diagnostic: Diagnostic) => void,
  options: { pollMs?: number; now?: () => Date } = {},
): Promise<SessionWaiter> {
  const cwd = await canonicalCwd(workspacePath);
  /** Rollouts read already (of this workspace or not): each is read once. */
  const seen = new Set<string>();
  let disposed = false;
  const matches = async (info: SessionInfo): Promise<boolean> => info.cwd !== null && (info.cwd === cwd || (await canonicalCwd(info.cwd)) === cwd);
  const runner = new SerialRunner(async () => {
    for (const home of codexHomes) {
      for (const folder of recentDayFolders(home, (options.now ?? (() => new Date()))())) {
        const names = await readdir(folder).catch(() => [] as string[]);
        for (const name of names.filter(isRolloutFile).sort()) {
          const path = join(folder, name);
          if (disposed || seen.has(path)) continue;
          const info = await readCodexSessionInfo(path);
          // No cwd yet (Codex has not written its first record): look again on the next poll,
          // unless so much is written that it will never say (then it is not this workspace's).
          if (!info.ok || (info.value.cwd === null && info.value.sizeBytes < NO_CWD_AFTER_BYTES)) continue;
          seen.add(path);
          if (await matches(info.value)) found(info.value);
        }
      }
    }
  });
  const timer = setInterval(
    () =>
      void runner
        .request()
        .catch((error: unknown) =>
          report({ severity: 'warning', code: 'io', message: `waiting for a Codex session: ${error instanceof Error ? error.message : String(error)}` }),
        ),
    options.pollMs ?? CODEX_WAIT_POLL_MS,
  );
  await runner.request();
  return {
    where: codexHomes.map(sessionsDir),
    dispose: () => {
      disposed = true;
      clearInterval(timer);
    },
  };
}
