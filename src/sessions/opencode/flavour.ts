// OpenCode's flavour of the OpenCode family (common/opencodeFamily): its names, CLI, database and
// config places; the adapter and the connection (which finds the database a hook reads) share it.
import type { OpencodeFlavour } from '../common/opencodeFamily';

// Named here so the check that the resident reader is sent every variable read (residentTrust.test.ts) sees them.
const OPENCODE_DB_ENV = 'OPENCODE_DB';
const OPENCODE_CONFIG_ENV = 'OPENCODE_CONFIG_CONTENT';

export const OPENCODE_FLAVOUR: OpencodeFlavour = {
  id: 'opencode',
  name: 'OpenCode',
  command: 'opencode',
  dbEnv: OPENCODE_DB_ENV,
  relativeDbUnderData: false,
  folder: 'opencode',
  dbFile: 'opencode.db',
  configEnv: OPENCODE_CONFIG_ENV,
  globalConfigs: ['opencode.json', 'opencode.jsonc'],
  projectConfigs: ['opencode.json', 'opencode.jsonc'],
  storageFile: 'an OpenCode storage file (OpenCode 0.x JSON storage)',
  sessionStore: 'its database, opencode.db (OpenCode 1.2 and later)',
  // Its fork Kilo keeps the same tables: Kilo's database (kilo.db, kilo-<channel>.db, or any with
  // Kilo's `kilo_board` table) is Kilo's, read by that adapter.
  claims: (database) => !/^kilo(-[A-Za-z0-9._-]+)?\.db$/.test(database.fileName) && !database.hasTable('kilo_board'),
};
