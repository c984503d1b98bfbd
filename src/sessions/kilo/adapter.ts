// Kilo (`@kilocode/cli`, whose VS Code extension runs it as its backend) behind the adapter port: an
// OpenCode fork whose `kilo.db` has OpenCode's tables (README.md compares the schemas), so it is read
// and forked by the OpenCode family's shared code (common/opencodeFamily) with Kilo's flavour. A
// session is named `<database>#<session id>`; a fork goes in through `kilo import`.
import { opencodeFamilyPorts, storageFileOf } from '../common/opencodeFamily';
import type { AgentAdapter } from '../port';
import { KILO_FLAVOUR } from './flavour';
import { isKiloSessionPath } from './owns';
import { KILO_TOOLS } from './tools';

/** This agent's id among the agents Context Lens reads (types.ts). */
declare module '../types' {
  interface KnownAgents {
    kilo: true;
  }
}

export const kiloAdapter: AgentAdapter = {
  ...opencodeFamilyPorts(KILO_FLAVOUR),
  id: KILO_FLAVOUR.id,
  name: KILO_FLAVOUR.name,
  command: KILO_FLAVOUR.command,
  installPackage: '@kilocode/cli',
  installGuide: 'https://kilo.ai/docs/cli',
  pointSetBy: "Kilo's `compaction.reserved` and the model's limit in its config",
  home: {
    option: 'kilo-db',
    env: 'KILO_DB',
    otherEnv: ['KILO_CONFIG_CONTENT'],
    describe: 'KILO_DB, else $XDG_DATA_HOME/kilo/kilo.db (~/.local/share/kilo/kilo.db)',
  },
  tools: KILO_TOOLS,
  // Its sessions, and the files of its own JSON storage (`kilo/storage/…`, refused by name when read).
  owns: async (path: string) => isKiloSessionPath(path) || (await storageFileOf(path))?.owner === KILO_FLAVOUR.folder,
};
