// OpenCode behind the adapter port (port.ts): sessions are rows of its SQLite database (OPENCODE_DB,
// else under the XDG data folder), read page by page without writing (common/opencodeStore) and forked by the OpenCode family's shared code
// (common/opencodeFamily, which OpenCode's forks such as Kilo share), matched to a workspace by their
// `directory`, child sessions shown as subagents; the gauge's compaction point from its config. A
// session is named `<database>#<session id>`. A fork goes in through `opencode import`.
import { opencodeFamilyPorts, parseSessionPath, storageFileOf } from '../common/opencodeFamily';
import { OPENCODE_FLAVOUR } from './flavour';
import type { AgentAdapter } from '../port';
import { OPENCODE_TOOLS } from './tools';
import { opencodeLiveProxy } from './liveProxy';
import { opencodeConnection } from './connection';

/** This agent's id among the agents Context Lens reads (types.ts). */
declare module '../types' {
  interface KnownAgents {
    opencode: true;
  }
}

export const opencodeAdapter: AgentAdapter = {
  ...opencodeFamilyPorts(OPENCODE_FLAVOUR),
  id: OPENCODE_FLAVOUR.id,
  liveProxy: opencodeLiveProxy,
  name: 'OpenCode',
  command: 'opencode',
  installPackage: 'opencode-ai',
  installGuide: 'https://opencode.ai/docs/#install',
  pointSetBy: "OpenCode's `compaction.reserved` and the model's limit in its config",
  home: {
    option: 'opencode-db',
    env: 'OPENCODE_DB',
    otherEnv: ['OPENCODE_CONFIG_CONTENT'],
    describe: 'OPENCODE_DB, else $XDG_DATA_HOME/opencode/opencode.db (~/.local/share/opencode/opencode.db)',
  },
  tools: OPENCODE_TOOLS,
  // Its sessions, and any file of its JSON storage (refused by name when read): Kilo is offered a path first (agents.ts).
  owns: async (path: string) => parseSessionPath(path) !== null || (await storageFileOf(path)) !== null,
  connection: opencodeConnection,
};
