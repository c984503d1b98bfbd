// What the hook commands run: a copy of the CLI bundles in the extension's global storage (the
// extension's own folder changes with every update, which would break the hooks), started by a
// Node.js from PATH or, where there is none (Claude Code ships as a native binary), by VS Code's
// own runtime. Free of `vscode` so it can be tested directly.
import { accessSync, constants } from 'node:fs';
import { copyFile, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { READ_CAPS, readRegularText } from '../../sessions/common/regularFile';
import type { CommandPaths } from '../../sessions/connection';
import { describeFsError } from '../../sessions/result';

/** The bundles the hook and status line commands run, with the shared files `cli.js` requires beside it (see esbuild.mjs). */
export const HOOK_BUNDLES = ['cli.js', 'cli-main.js', 'statusline.js', 'zod.js', 'anthropic-sdk.js', 'mcp-sdk.js', 'nlp.js'] as const;
const VERSION_FILE = 'version';

export interface Runtime {
  readonly pathEnv: string;
  readonly platform: NodeJS.Platform;
  /** The running process's executable and whether it is Electron (desktop VS Code) or Node (code-server). */
  readonly execPath: string;
  readonly isElectron: boolean;
}

/** First executable `command` on PATH (on Windows with its .exe/.cmd/.bat), else null. */
export function executableOnPath(command: string, pathEnv: string, platform: NodeJS.Platform): string | null {
  const names = platform === 'win32' ? ['.exe', '.cmd', '.bat'].map((extension) => `${command}${extension}`) : [command];
  for (const folder of pathEnv.split(platform === 'win32' ? ';' : delimiter)) {
    if (folder === '') continue;
    for (const name of names) {
      const candidate = join(folder, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not here; keep looking.
      }
    }
  }
  return null;
}

/** First `node` on PATH that can be executed, else null. */
export function nodeOnPath(pathEnv: string, platform: NodeJS.Platform): string | null {
  return executableOnPath('node', pathEnv, platform);
}

export function commandPaths(runtime: Runtime, binDir: string): CommandPaths {
  const node = nodeOnPath(runtime.pathEnv, runtime.platform);
  if (node !== null) return { node, binDir, platform: runtime.platform };
  return { node: runtime.execPath, electronRunAsNode: runtime.isElectron, binDir, platform: runtime.platform };
}

/**
 * Copies the bundles from the extension's `dist/` when the copy is missing or from another
 * version. Each file is renamed into place so a hook never runs half a bundle.
 */
export async function installBundles(distDir: string, binDir: string, version: string): Promise<boolean> {
  if ((await installedVersion(binDir)) === version) return false;
  await mkdir(binDir, { recursive: true }).catch((error: unknown) => {
    throw new Error(describeFsError(error, binDir, 'create-folder'), { cause: error });
  });
  for (const name of HOOK_BUNDLES) {
    const temp = join(binDir, `.${name}.${process.pid}.tmp`);
    const source = join(distDir, name);
    try {
      await copyFile(source, temp);
      await rename(temp, join(binDir, name));
    } catch (error) {
      // A full disk must not leave half a bundle behind for the next run to trip over.
      await unlink(temp).catch(() => undefined);
      // copyFile fails on either side: a missing bundle is a read, a full disk a write.
      const reading = (error as NodeJS.ErrnoException).path === source;
      throw new Error(describeFsError(error, reading ? source : join(binDir, name), reading ? 'read' : 'write'), { cause: error });
    }
  }
  await writeFile(join(binDir, VERSION_FILE), version, 'utf8');
  return true;
}

/** Refreshes an existing copy after an update; never creates one (only Connect does). */
export async function refreshBundles(distDir: string, binDir: string, version: string): Promise<boolean> {
  return (await installedVersion(binDir)) !== null ? installBundles(distDir, binDir, version) : false;
}

/** The version stamp of the installed copy, null when there is none (or it is not a small regular file). */
async function installedVersion(binDir: string): Promise<string | null> {
  const read = await readRegularText(join(binDir, VERSION_FILE), READ_CAPS.marker);
  return read.ok ? read.value : null;
}
