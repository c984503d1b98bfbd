// The focus a person last gave Compact… for a session, offered again the next time: a keep pressed
// in the map, or a change of mind, should not mean typing the same instructions again. Kept in the
// workspace state like the choices; free of `vscode`.
import type { StateStorage } from '../context/choices';

const KEY_PREFIX = 'contextLens.focus:';
/** A focus longer than this is not worth offering back (an input box shows one line). */
const FOCUS_MAX = 2_000;

export class FocusMemory {
  constructor(private readonly storage: StateStorage) {}

  /** The last focus given for the session ('' when it was cleared), or undefined when none was. */
  get(sessionPath: string): string | undefined {
    const stored = this.storage.get<unknown>(KEY_PREFIX + sessionPath);
    return typeof stored === 'string' ? stored.slice(0, FOCUS_MAX) : undefined;
  }

  async set(sessionPath: string, focus: string): Promise<void> {
    await this.storage.update(KEY_PREFIX + sessionPath, focus.slice(0, FOCUS_MAX));
  }
}
