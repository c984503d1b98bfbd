// `ctxlens archive prune`: keeps the archive of pre-compaction contexts within its caps. The
// archive holds whole (redacted) contexts, so it is private and bounded; `compact --write-session`
// prunes it too after each entry it adds.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pruneArchive, type PruneReport } from '../archive/fileArchive';
import { DEFAULT_ARCHIVE_CAPS } from '../engine';
import { bytes } from './format';
import { EXIT_OK, inputError, parse, usageError, writeJson, type Io } from './io';

export const ARCHIVE_USAGE = `ctxlens archive prune [--max-mb N] [--max-age-days N] [--dry-run] [--archive-dir DIR] [--json]
  Removes archived contexts older than --max-age-days (default ${DEFAULT_ARCHIVE_CAPS.maxAgeDays}), then the oldest until
  the rest fits in --max-mb (default ${DEFAULT_ARCHIVE_CAPS.maxMegabytes}); 0 = no cap. --dry-run only lists them.`;

const OPTIONS = {
  'max-mb': { type: 'string' },
  'max-age-days': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'archive-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** `$XDG_STATE_HOME/context-lens/archive`, or `~/.local/state/context-lens/archive`: outside the agent's folders. */
export function defaultArchiveDir(io: Io): string {
  const state = io.env.XDG_STATE_HOME;
  return join(state ? state : join(io.env.HOME ?? homedir(), '.local', 'state'), 'context-lens', 'archive');
}

export function archiveDirOf(value: string | undefined, io: Io): string {
  return value !== undefined ? resolve(value) : defaultArchiveDir(io);
}

function cap(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw usageError(`${flag} needs a number ≥ 0, got '${value}'`);
  return number;
}

export async function archiveCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, 1);
  if (positionals[0] !== 'prune') throw usageError(`unknown archive command '${positionals[0] ?? ''}' (expected prune)`);
  const pruned = await pruneArchive(archiveDirOf(values['archive-dir'], io), {
    maxMegabytes: cap(values['max-mb'], '--max-mb', DEFAULT_ARCHIVE_CAPS.maxMegabytes),
    maxAgeDays: cap(values['max-age-days'], '--max-age-days', DEFAULT_ARCHIVE_CAPS.maxAgeDays),
    dryRun: values['dry-run'] ?? false,
  });
  if (!pruned.ok) throw inputError(pruned.error);
  if (values.json) writeJson(io, pruned.value);
  else io.out.write(`${human(pruned.value)}\n`);
  return EXIT_OK;
}

function human(report: PruneReport): string {
  const freed = report.removed.reduce((sum, file) => sum + file.bytes, 0);
  const verb = report.dryRun ? 'Would remove' : 'Removed';
  return [
    ...report.removed.map((file) => `${report.dryRun ? 'would remove' : 'removed'} ${file.name} (${bytes(file.bytes)}, ${file.reason})`),
    `${verb} ${report.removed.length} file(s), ${bytes(freed)}; kept ${report.keptEntries} entr${report.keptEntries === 1 ? 'y' : 'ies'}, ${bytes(report.keptBytes)} in ${report.folder}`,
  ].join('\n');
}
