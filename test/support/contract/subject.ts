// What the adapter contract suite (test/unit/sessions/contract.test.ts) needs from each agent's
// tests: its recorded sessions, an independent reading of their exact fill, and a way to write one
// more turn the way the agent would. Everything else the suite asks through the adapter port alone.
import type { SessionLocations } from '../../../src/sessions/port';

export interface RecordedSession {
  /** `demo`, `public/…`: how a test names it. */
  name: string;
  /** Where the agent's sessions of this fixture are. */
  where: SessionLocations;
  /** The session's path as the adapter names it (a file, or a store plus an id). */
  path: string;
}

export interface ScratchSession {
  where: SessionLocations;
  /** The workspace the session ran in (the adapter lists it there). */
  workspace: string;
  path: string;
  /** The file on disk the session lives in, for the bad-input checks. */
  file: string;
}

export interface ContractSubject {
  /** The recorded and published sessions of this agent's fixtures. */
  sessions(): RecordedSession[];
  /**
   * The fill the agent's own counts give after the session's last model call, read from the file
   * without the adapter (null: nothing counted since the last compaction, or the usage is all zero).
   */
  lastFillTokens(path: string): number | null;
  /** A copy of one recorded session under `dir`, which the suite may append to, fork and damage. */
  scratch(dir: string): ScratchSession;
  /** Appends a new prompt and an answer whose counts give a fill of `fillTokens`, as the agent writes them. */
  appendTurn(session: ScratchSession, fillTokens: number): void;
}
