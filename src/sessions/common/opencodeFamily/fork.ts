// Applies a compaction to an OpenCode-family session through the agent's own door: the fork is written
// as an export-format file (forkFile.ts) beside the database, in `context-lens/`, then `<command>
// import` (`opencode import`, `kilo import`) puts it into the database, run as the person would run
// it (their PATH, the database named by the flavour's variable, OPENCODE_DB or KILO_DB). We never
// write the agent's database ourselves. Without the CLI the file is offered.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeNewAtomically } from '../../atomicWrite';
import type { ForkInput, WrittenFork } from '../../port';
import { fail, ok } from '../../result';
import type { Result } from '../../types';
import { forkFileOf } from './forkFile';
import { forkFolderOf, writeForkNote } from './forks';
import { readOpencodeSessionInfo } from './listing';
import type { OpencodeFlavour } from './flavour';
import { sessionPath } from './paths';

const IMPORT_TIMEOUT_MS = 120_000;

interface Run {
  code: number | null;
  output: string;
  missing: boolean;
}

async function runImport(flavour: OpencodeFlavour, file: string, db: string, cwd: string): Promise<Run> {
  // Required here, not at the top: child_process brings net and dgram, which every CLI command
  // would otherwise load through the registry before printing anything.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(flavour.command, ['import', file], { cwd, env: { ...process.env, [flavour.dbEnv]: db }, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), IMPORT_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: null, output: error.message, missing: error.code === 'ENOENT' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, missing: false });
    });
  });
}

export async function writeOpencodeFork(flavour: OpencodeFlavour, input: ForkInput): Promise<Result<WrittenFork>> {
  const built = await forkFileOf(flavour, input);
  if (!built.ok) return built;
  const { sessionId, db, directory, document } = built.value;
  const folder = forkFolderOf(db);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${sessionId}.json`);
  const written = await writeNewAtomically(file, `${JSON.stringify(document, null, 2)}\n`);
  if (!written.ok) return written;
  // What the agent's rows cannot say: whose fork this is (forks.ts reads it back).
  const noted = await writeForkNote(folder, sessionId, { sessionId: input.live.session.id, title: input.live.session.title });
  if (!noted.ok) return noted;
  const cwd = directory !== '' && existsSync(directory) ? directory : dirname(db);
  const run = await runImport(flavour, file, db, cwd);
  const command = flavour.command;
  if (run.missing)
    return fail(
      'not-found',
      `${flavour.name}'s CLI (${command}) is not on PATH, so the fork was not imported. It is written to ${file}: \`${command} import ${file}\` adds it.`,
      file,
    );
  if (run.code !== 0) return fail('io', `${command} import ${file} failed (exit ${run.code ?? 'killed'}): ${run.output.trim().slice(-500)}`, file);
  const path = sessionPath(db, sessionId);
  const imported = await readOpencodeSessionInfo(flavour, path);
  if (!imported.ok) return fail('io', `${command} import ${file} ran, but the session is not in ${db}: ${imported.error.message}`, file);
  return ok({
    sessionId,
    path,
    resumeCommand: `${command} --session ${sessionId}`,
    notes: [`Imported with \`${command} import ${file}\`; \`${command} run --session ${sessionId}\` continues it from ${directory || 'its folder'}.`],
  });
}
