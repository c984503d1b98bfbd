// Issue 40's probe of `connect` against the built CLI: a workspace whose `.claude/settings.local.json`,
// `.mcp.json` or `.claude` folder is a symbolic link out of it, as a cloned repository can ship them.
// Every command that writes those files must refuse, name the link and its target, and leave
// everything outside the workspace (and the workspace itself) as it was.
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runCli, type CliRun } from '../cliRun';

export interface LinkCase {
  name: string;
  /** The link in the workspace and where it points. */
  link: string;
  target: string;
  /** Each command, and whether the folder outside and the workspace held what they held before, byte for byte, after it. */
  runs: { args: string[]; run: CliRun; outsideUntouched: boolean; workspaceUntouched: boolean }[];
}

/** Every file under `folder` (links not followed) with its bytes, for a before/after comparison. */
function tree(folder: string): string {
  const lines: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        lines.push(
          `${relative(folder, path)} ${entry.isSymbolicLink() ? 'link' : readFileSync(path, 'base64')} ${entry.isSymbolicLink() ? '' : statSync(path).mode}`,
        );
    }
  };
  walk(folder);
  return lines.join('\n');
}

export async function connectThroughLinks(cli: string, root: string): Promise<LinkCase[]> {
  const cases: [string, (workspace: string, outside: string) => { link: string; target: string }][] = [
    [
      '.claude/settings.local.json a link to a file outside',
      (workspace, outside) => {
        mkdirSync(join(workspace, '.claude'));
        symlinkSync(join(outside, 'settings.json'), join(workspace, '.claude', 'settings.local.json'));
        return { link: join(workspace, '.claude', 'settings.local.json'), target: join(outside, 'settings.json') };
      },
    ],
    [
      '.mcp.json a link to a file outside',
      (workspace, outside) => {
        symlinkSync(join(outside, 'settings.json'), join(workspace, '.mcp.json'));
        return { link: join(workspace, '.mcp.json'), target: join(outside, 'settings.json') };
      },
    ],
    [
      '.claude a link to a folder outside',
      (workspace, outside) => {
        symlinkSync(outside, join(workspace, '.claude'));
        return { link: join(workspace, '.claude'), target: outside };
      },
    ],
    [
      '.claude/settings.local.json a dangling link outside',
      (workspace, outside) => {
        mkdirSync(join(workspace, '.claude'));
        symlinkSync(join(outside, 'not-yet.json'), join(workspace, '.claude', 'settings.local.json'));
        return { link: join(workspace, '.claude', 'settings.local.json'), target: join(outside, 'not-yet.json') };
      },
    ],
  ];
  const outcomes: LinkCase[] = [];
  for (const [index, [name, make]] of cases.entries()) {
    const workspace = join(root, `ws-${index}`);
    const outside = join(root, `outside-${index}`);
    mkdirSync(workspace, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'settings.json'), '{ "mine": true }\n', { mode: 0o640 });
    const { link, target } = make(workspace, outside);
    const before = { outside: tree(outside), workspace: tree(workspace) };
    const env = { PATH: process.env.PATH ?? '', HOME: root, XDG_STATE_HOME: join(root, 'state'), NO_COLOR: '1' };
    const runs: LinkCase['runs'] = [];
    // `mcp --register` writes .mcp.json alone: asked where that is the link.
    const commands = [
      ['connect', workspace],
      ['connect', workspace, '--dry-run'],
      ['disconnect', workspace],
      ...(link.endsWith('.mcp.json') ? [['mcp', '--register', workspace]] : []),
    ];
    for (const args of commands) {
      // Looked at after each command: a disconnect would undo what a connect wrote through the link.
      const run = await runCli(process.execPath, [cli, ...args], { cwd: root, env, timeoutMs: 20_000 });
      runs.push({ args, run, outsideUntouched: tree(outside) === before.outside, workspaceUntouched: tree(workspace) === before.workspace });
    }
    outcomes.push({ name, link, target, runs });
  }
  return outcomes;
}
