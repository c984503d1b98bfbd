// Whether a state from the host shows another session than the panel showed: what the person had
// open in the one before (an item in the detail pane, a selected row) is that session's, and must
// not stay next to the new session's gauge and map (after Apply the panel follows the fork).
// DOM-free for tests.

/** The id of the session the panel shows; `undefined` before the first state (nothing shown yet). */
export type ShownSession = string | null | undefined;

/** True when the panel moves from one shown session to another (or to none); the first state is no switch. */
export function switchedSession(before: ShownSession, after: string | null): boolean {
  return before !== undefined && before !== after;
}
