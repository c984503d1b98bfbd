// What a shell tool call touches, for agents whose only file tool is the shell (e.g. Codex's
// exec_command): a command that just prints one file is a file read of that file, and a patch in
// apply_patch's format names the files it writes. Anything more involved (pipes, redirections,
// several commands, variables) is an ordinary command: guessing wrong would let a newer read of
// "the same file" stub output the model still needs.

export interface ShellFileRead {
  path: string;
  /** The read range in the resource key's terms (first line, line count; `tail` counts from the end). */
  offset?: number | string;
  limit?: number;
}

/** Shell syntax that makes a command more than one program printing one file. */
const COMPOUND = /[|;&<>`$\n\\*?]/;

function words(command: string): string[] | null {
  const found: string[] = [];
  const pattern = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (let match = pattern.exec(command); match !== null; match = pattern.exec(command)) found.push(match[1] ?? match[2] ?? match[3] ?? '');
  return found.length === 0 ? null : found;
}

const count = (text: string | undefined): number | null => (text !== undefined && /^\d+$/.test(text) ? Number(text) : null);

/** `cat F`, `sed -n 'A,Bp' F`, `head [-n N] F`, `tail [-n N] F`: the file and range they print, else null. */
export function shellFileRead(command: string): ShellFileRead | null {
  if (COMPOUND.test(command)) return null;
  const argv = words(command.trim());
  if (argv === null) return null;
  const [program, ...args] = argv;
  const file = args.at(-1);
  if (file === undefined || file.startsWith('-')) return null;
  if (program === 'cat' && args.length === 1) return { path: file };
  if (program === 'sed' && args.length === 3 && args[0] === '-n') {
    const range = /^(\d+)(?:,(\d+))?p$/.exec(args[1] ?? '');
    if (!range) return null;
    const first = Number(range[1]);
    return { path: file, offset: first, limit: Number(range[2] ?? first) - first + 1 };
  }
  if (program === 'head' || program === 'tail') {
    const lines = args.length === 1 ? 10 : args.length === 3 && args[0] === '-n' ? count(args[1]) : args.length === 2 ? count(args[0]?.slice(1)) : null;
    if (lines === null) return null;
    return program === 'head' ? { path: file, offset: 1, limit: lines } : { path: file, offset: 'end', limit: lines };
  }
  return null;
}

const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m;

/** The first file a patch in apply_patch's format changes, or null. */
export function patchTarget(patch: string): string | null {
  return PATCH_FILE.exec(patch)?.[1]?.trim() ?? null;
}
