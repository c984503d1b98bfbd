// Small helpers the contract subjects share: JSON lines read without any adapter code, and a copy
// of a fixture file into a scratch folder at the same relative place.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Every line of `path` that parses as a JSON object, in order; others are skipped. */
export function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return value !== null && typeof value === 'object' && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

/** Copies `file` (below `root`) to the same place below `dir`; returns the copy's path. */
export function copyInto(dir: string, root: string, file: string): string {
  const copy = join(dir, relative(root, file));
  mkdirSync(dirname(copy), { recursive: true });
  copyFileSync(file, copy);
  return copy;
}

export const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

export const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
