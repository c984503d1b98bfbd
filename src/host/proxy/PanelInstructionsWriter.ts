// Leaves the panel's say about the followed session where every live proxy looks for it
// (the one this window runs and one started in a terminal alike), so the next request through any
// of them follows the gauge's thresholds and the map's choices, with the session's tool call ids so a
// request naming no session (Gemini CLI, OpenCode) is placed by them. Written only when it changed,
// one write at a time, the latest winning. Free of `vscode`.
import { panelDir, writePanelInstructions } from '../../proxy';
import type { PanelSay } from '../../proxy';

export class PanelInstructionsWriter {
  private readonly dir: string;
  /** What the file of each session last said (or will say once the queued write lands). */
  private readonly written = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private failedOnce = false;

  constructor(
    stateDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.dir = panelDir(stateDir);
  }

  /** `agentSession`: the followed session's id, whatever its agent. */
  update(agentSession: string, instructions: PanelSay): void {
    const text = JSON.stringify(instructions);
    if (this.written.get(agentSession) === text) return;
    this.written.set(agentSession, text);
    this.queue = this.queue.then(async () => {
      const result = await writePanelInstructions(this.dir, agentSession, instructions);
      if (result.ok || this.failedOnce) return;
      // Said once: the panel still works; only the proxies go on with their own options.
      this.failedOnce = true;
      this.written.delete(agentSession);
      this.log(`cannot leave the panel's choices for the live proxy: ${result.error.message}`);
    });
  }

  /** Resolves when every write asked for so far has landed (tests, shutdown). */
  settled(): Promise<void> {
    return this.queue;
  }
}
