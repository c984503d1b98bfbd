// Whether a file Connect would write in a workspace really is in that workspace. A repository can
// ship `.claude/settings.local.json`, `.mcp.json` or the `.claude` folder itself as a symbolic link
// to anywhere (`~/.bashrc`, another project's settings): written through, the link would carry our
// hooks out of the workspace. So no link is followed on the way to a file we write: one found is
// refused, named with where it points, and the folder the file lands in must resolve inside the
// workspace (what `realpath` says, whatever the workspace's own path goes through).
import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fail, failFromError, ok } from '../result';
import type { Result } from '../types';

/**
 * `path` (inside `workspace`) when neither it nor a folder between the workspace and it is a
 * symbolic link, and its folder resolves inside the workspace; else why not, in words.
 */
export async function workspaceFile(workspace: string, path: string): Promise<Result<string>> {
  const steps = relative(workspace, path);
  if (steps === '' || steps.startsWith('..') || isAbsolute(steps)) return fail('invalid-input', `${path} is not inside ${workspace}`, path);
  let current = workspace;
  for (const step of steps.split(sep)) {
    current = resolve(current, step);
    let linked: boolean;
    try {
      linked = (await lstat(current)).isSymbolicLink();
    } catch (error) {
      // Not there yet (Connect creates it): nothing further down exists either.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
      return failFromError(error, current);
    }
    if (linked) return fail('invalid-input', await linkRefusal(current, path));
  }
  return insideByRealpath(workspace, path);
}

/** The sentence for a link on the way to `path`: which link, where it points, what to do. */
async function linkRefusal(link: string, path: string): Promise<string> {
  const target = await readlink(link).then(
    (to) => resolve(dirname(link), to),
    () => 'an unreadable target',
  );
  const what = link === path ? link : `${link} (on the way to ${path})`;
  return `${what} is a symbolic link to ${target}; Context Lens does not write through links, which a repository can point anywhere. Nothing was written. Replace the link with a file (or a folder) of its own to connect.`;
}

/** The deepest existing folder of `path` must resolve inside the workspace as it resolves. */
async function insideByRealpath(workspace: string, path: string): Promise<Result<string>> {
  try {
    const root = await realpath(workspace);
    let folder = dirname(path);
    for (;;) {
      try {
        const real = await realpath(folder);
        if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep))
          return fail('invalid-input', `${folder} resolves to ${real}, outside the workspace ${root}; nothing was written.`, path);
        return ok(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || folder === workspace) throw error;
        folder = dirname(folder);
      }
    }
  } catch (error) {
    return failFromError(error, path);
  }
}
