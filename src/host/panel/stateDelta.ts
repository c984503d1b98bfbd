// What changed in the panel state since it was last sent. The timeline (up to 5,000 points) and the
// history are most of a state message and rarely change while the agent streams, so each top-level
// part is compared by its serialised form and only the changed ones go out. Free of `vscode`.
import type { PanelState } from '../../protocol/messages';

export class StateDelta {
  private readonly sent = new Map<keyof PanelState, string>();

  /** `initial` is what every webview gets whole when it says ready. */
  constructor(initial: PanelState) {
    this.remember(initial);
  }

  /** The changed parts of `state` (and remembers them as sent), or null when nothing changed. */
  patch(state: PanelState): Partial<PanelState> | null {
    const patch: Partial<PanelState> = {};
    let changed = false;
    for (const key of Object.keys(state) as (keyof PanelState)[]) {
      const json = JSON.stringify(state[key]);
      if (this.sent.get(key) === json) continue;
      this.sent.set(key, json);
      Object.assign(patch, { [key]: state[key] });
      changed = true;
    }
    return changed ? patch : null;
  }

  private remember(state: PanelState): void {
    for (const key of Object.keys(state) as (keyof PanelState)[]) this.sent.set(key, JSON.stringify(state[key]));
  }
}
