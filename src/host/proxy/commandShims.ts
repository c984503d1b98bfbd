// Start Live Proxy for an agent no variable points (Codex CLI 0.169 ignores OPENAI_BASE_URL; it
// takes its base URL from config.toml or a `-c` flag). New terminals get a private folder first on
// their PATH with one small sh script per command of such an agent: it finds the real command on
// the rest of PATH and runs it through `ctxlens run --via`, which points that one run at the proxy
// the way `ctxlens run` would, computed from the terminal's own environment and arguments, or runs
// it as it is (with a note) when it cannot. The person's config files are never written. When the
// proxy stops the scripts are rewritten to run the real command directly (a terminal opened while
// it ran keeps the folder on its PATH, and a shell may have remembered the script's path); the
// folder goes with the window. Free of `vscode`.
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from '../../base/result';
import { shellWord } from '../../base/shell';
import type { LauncherRuntime } from '../cliLauncher';

/** The line that says a script is ours. */
const MARK = '# context-lens-live-proxy-shim: written by the Context Lens extension';

/** One command a terminal gets through the proxy, and where the proxy sends that agent's API. */
export interface ShimCommand {
  readonly name: string;
  readonly agent: string;
  readonly upstream: string;
}

/** A name a script may have: a plain file name, nothing the shell or a path would read otherwise. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The script for `command`. `through` absent: the proxy stopped, the real command runs as it is.
 * The real command is the first executable file of that name on PATH outside the script's folder.
 */
export function shimScript(folder: string, command: ShimCommand, runtime: LauncherRuntime, through?: { origin: string }): string {
  const env = runtime.isElectron ? 'ELECTRON_RUN_AS_NODE=1 ' : '';
  const run = through
    ? `${env}exec ${shellWord(runtime.execPath)} ${shellWord(runtime.cli)} run --via ${shellWord(through.origin)} --via-upstream ${shellWord(command.upstream)} -- "$real" "$@"`
    : 'exec "$real" "$@"';
  return [
    '#!/bin/sh',
    MARK,
    through
      ? `# ${command.name} started in this terminal goes through Context Lens's live proxy (${command.agent}); Stop Live Proxy ends it.`
      : `# Context Lens's live proxy stopped: ${command.name} runs as it is.`,
    `here=${shellWord(folder)}`,
    'real=',
    // Split PATH on colons only, without globbing its entries; an empty entry (the current folder) is skipped.
    'set -f; IFS=:',
    'for dir in $PATH; do',
    `  if [ -n "$dir" ] && [ "$dir" != "$here" ] && [ -f "$dir/${command.name}" ] && [ -x "$dir/${command.name}" ]; then real=$dir/${command.name}; break; fi`,
    'done',
    'unset IFS; set +f',
    `if [ -z "$real" ]; then echo "${command.name}: command not found (Context Lens's live proxy looked on PATH past $here)" >&2; exit 127; fi`,
    run,
    '',
  ].join('\n');
}

export const isOurShim = (text: string): boolean => text.split('\n', 3).includes(MARK);

/** A fresh private folder under `parent` for the scripts. */
export async function makeShimFolder(parent: string): Promise<Result<string>> {
  try {
    await mkdir(parent, { recursive: true, mode: 0o700 });
    const folder = await mkdtemp(join(parent, 'live-proxy-'));
    await chmod(folder, 0o700);
    return { ok: true, value: folder };
  } catch (error) {
    return { ok: false, error: `cannot make a folder for the terminals' commands in ${parent}: ${messageOf(error)}` };
  }
}

/**
 * A script per command in `folder`, through the proxy on `origin`, or (null: it stopped) running the
 * real command as it is. Each replaces the last atomically: a terminal running one never reads half.
 */
export async function writeShimScripts(
  folder: string,
  commands: readonly ShimCommand[],
  runtime: LauncherRuntime,
  origin: string | null,
): Promise<Result<void>> {
  try {
    for (const command of commands.filter((one) => PLAIN_NAME.test(one.name))) {
      const path = join(folder, command.name);
      const temporary = `${path}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, shimScript(folder, command, runtime, origin === null ? undefined : { origin }), { mode: 0o755 });
        await rename(temporary, path);
      } finally {
        await rm(temporary, { force: true });
      }
    }
    return { ok: true, value: undefined };
  } catch (error) {
    return { ok: false, error: `cannot write the terminals' commands in ${folder}: ${messageOf(error)}` };
  }
}

export async function removeShims(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
