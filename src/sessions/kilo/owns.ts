// Which `<database>#<session id>` paths are Kilo's: OpenCode's names its sessions the same way, so the
// database tells them apart. Kilo's is `kilo.db` or a channel's `kilo-<channel>.db`, or whatever
// KILO_DB names; Kilo is offered a path before OpenCode (agents.ts), so no Kilo session is read as
// OpenCode's.
import { basename, resolve } from 'node:path';
import { parseSessionPath, resolveDatabases } from '../common/opencodeFamily';
import { KILO_DB_NAME, KILO_FLAVOUR } from './flavour';

export function isKiloSessionPath(path: string, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const parsed = parseSessionPath(path);
  if (parsed === null) return false;
  if (KILO_DB_NAME.test(basename(parsed.db))) return true;
  return resolveDatabases(KILO_FLAVOUR, { env }).includes(resolve(parsed.db));
}
