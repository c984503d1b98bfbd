// The fixture folders of one agent: those recorded here with the real CLI (`<root>/<scenario>/`) and
// the public real sessions kept with their attribution (`<root>/public/<name>/`), in a stable order.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface FixtureFolder {
  /** `parallel`, `public/…`: how a test names it. */
  name: string;
  /** Recorded here (the API scripted, every record the CLI's) or a public session of a real person. */
  origin: 'recorded' | 'public';
  folder: string;
}

function foldersOf(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'public')
    .map((entry) => entry.name)
    .sort();
}

export function fixtureFolders(root: string): FixtureFolder[] {
  const publicRoot = join(root, 'public');
  return [
    ...foldersOf(root).map((name) => ({ name, origin: 'recorded' as const, folder: join(root, name) })),
    ...foldersOf(publicRoot).map((name) => ({ name: `public/${name}`, origin: 'public' as const, folder: join(publicRoot, name) })),
  ];
}
