// The command lines Connect writes for an agent's hooks (Codex, Gemini CLI): `ctxlens hook <kind>
// --agent <id>` behind a marker, through our launcher when it is on PATH, else a Node.js and the
// bundle's `cli.js`. Paths are double-quoted with what a POSIX shell still expands escaped (the agents
// run hook commands through one) and, on Windows, written with forward slashes. Ours is a command that
// starts with the marker and ends with exactly our script and arguments: whatever Node.js it names
// (nvm or an update may move it), so Connect re-points it and Disconnect finds it.
import { CLI_COMMAND, type CommandPaths } from '../connection';

export const CONNECT_MARKER = 'CONTEXT_LENS_CONNECT=1';

const quote = (value: string, platform: NodeJS.Platform): string =>
  `"${(platform === 'win32' ? value.replace(/\\/g, '/') : value).replace(/["$`\\]/g, '\\$&')}"`;

/** The line that runs `ctxlens <args>` as `paths` say. */
export function ctxlensCommand({ node, electronRunAsNode = false, binDir, platform, viaLauncher = false }: CommandPaths, args: string): string {
  if (viaLauncher) return `${CONNECT_MARKER} ${CLI_COMMAND} ${args}`;
  const runner = `${electronRunAsNode ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}${quote(node, platform)}`;
  return `${CONNECT_MARKER} ${runner} ${quote(`${binDir.replace(/[\\/]+$/, '')}/cli.js`, platform)} ${args}`;
}

/** Whether `command` is one Connect wrote for `args`, whichever runner or bundle path it names. */
export function isCtxlensCommand(command: string, args: string): boolean {
  if (!command.startsWith(`${CONNECT_MARKER} `)) return false;
  if (command === `${CONNECT_MARKER} ${CLI_COMMAND} ${args}`) return true;
  return (
    command.endsWith(`/cli.js" ${args}`) &&
    !command.slice(CONNECT_MARKER.length, -args.length).includes('&&') &&
    !/[;|]/.test(command.replace(/"(?:[^"\\]|\\.)*"/g, ''))
  );
}
