// Kilo as a member of the OpenCode family (common/opencodeFamily): the same database and export format
// under its own names, as `@kilocode/cli` 7.7.7's binary reads them. Its database is KILO_DB (a
// relative one under the data folder; `:memory:` is none), else `$XDG_DATA_HOME/kilo/kilo.db` (the
// `latest` channel's; other channels write `kilo-<channel>.db`). Its config files: `config.json`,
// `kilo.json[c]` and `opencode.json[c]` in `$XDG_CONFIG_HOME/kilo/`, the last four in the project.
import type { OpencodeFlavour } from '../common/opencodeFamily';

/** Its database's file name: the `latest` channel's `kilo.db`, another channel's `kilo-<channel>.db`. */
export const KILO_DB_NAME = /^kilo(-[A-Za-z0-9._-]+)?\.db$/;
/** A table only Kilo's database has (its agents' shared board, since its 2026-08-28 migration). */
export const KILO_TABLE = 'kilo_board';

// Named here so the check that the resident reader is sent every variable read (residentTrust.test.ts) sees them.
const KILO_DB_ENV = 'KILO_DB';
const KILO_CONFIG_ENV = 'KILO_CONFIG_CONTENT';

export const KILO_FLAVOUR: OpencodeFlavour = {
  id: 'kilo',
  name: 'Kilo',
  command: 'kilo',
  dbEnv: KILO_DB_ENV,
  relativeDbUnderData: true,
  folder: 'kilo',
  dbFile: 'kilo.db',
  configEnv: KILO_CONFIG_ENV,
  globalConfigs: ['config.json', 'kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  projectConfigs: ['opencode.json', 'opencode.jsonc', 'kilo.json', 'kilo.jsonc'],
  storageFile: "a Kilo storage file (Kilo's JSON storage, as OpenCode's)",
  sessionStore: 'its database, kilo.db',
  claims: (database) => KILO_DB_NAME.test(database.fileName) || database.hasTable(KILO_TABLE),
};
