// PLACEHOLDER so the adapter compiles on this branch: the fork writer (a new chat that `gemini -r`
// resumes) is written on the h-gemcli branch, where writeGeminiFork lives in forkFromResult.ts
// (beside fork.ts, the file writer): its forkFromResult.ts replaces this one at merge.
import type { ForkInput, WrittenFork } from '../port';
import type { Result } from '../types';

export function writeGeminiFork(_input: ForkInput): Promise<Result<WrittenFork>> {
  return Promise.resolve({ ok: false, error: { code: 'io', message: 'not yet' } });
}
