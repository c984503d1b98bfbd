// What tells one agent of the OpenCode family from another: OpenCode and its forks (Kilo) keep the
// same database and export format, under their own names. Each adapter folder declares its flavour;
// everything in this folder reads and writes through it, so no agent name lives here.
import type { AgentId } from '../../types';

export interface OpencodeFlavour {
  /** The adapter's id, stamped on its sessions. */
  readonly id: AgentId;
  /** As people call it in messages: "OpenCode", "Kilo". */
  readonly name: string;
  /** Its CLI: the fork is imported with `<command> import`, resumed with `<command> --session`. */
  readonly command: string;
  /** The variable naming its database (OPENCODE_DB, KILO_DB). */
  readonly dbEnv: string;
  /** A relative database named by `dbEnv` is under the data folder (Kilo), else under the working folder. */
  readonly relativeDbUnderData: boolean;
  /** Its folder under the XDG data, config and cache folders: `opencode`, `kilo`. */
  readonly folder: string;
  /** Its default database's file name there. */
  readonly dbFile: string;
  /** The variable holding a whole config inline (OPENCODE_CONFIG_CONTENT, KILO_CONFIG_CONTENT). */
  readonly configEnv: string;
  /** Config files in its global config folder, the strongest last. */
  readonly globalConfigs: readonly string[];
  /** Config files in the session's folder, the strongest last. */
  readonly projectConfigs: readonly string[];
  /** A file of its JSON storage (storageFile.ts) in words, for the refusal: "an OpenCode storage file (OpenCode 0.x JSON storage)". */
  readonly storageFile: string;
  /** Where its sessions are read from instead, in words: "opencode.db (OpenCode 1.2 and later)". */
  readonly sessionStore: string;
  /**
   * Whether a database is this agent's, by its file name and its tables: the family's databases have
   * the same core tables, and every agent is asked about a database named on the command line, so
   * each must see only its own (a fork's database is not OpenCode's).
   */
  claims(database: { readonly fileName: string; hasTable(name: string): boolean }): boolean;
}
