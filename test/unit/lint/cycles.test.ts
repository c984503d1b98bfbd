import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

// No module of src/ reaches itself again through what it imports at run time: a cycle makes the
// order modules initialise in depend on which one is loaded first (a constant read before it is set).
// Imports of types only vanish from the output and are left out; so are `import { type A, type B }`.

const SRC = join(__dirname, '..', '..', '..', 'src');
const STATEMENT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gms;

const files = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(folder, name));

function target(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

/** Each file's run-time imports inside src/. */
function runtimeGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const [, typeOnly, names, spec] of text.matchAll(STATEMENT)) {
      if (typeOnly !== undefined || names === undefined || spec === undefined) continue;
      const braced = /^\{([^}]*)\}$/.exec(names.trim());
      if (braced?.[1] !== undefined && braced[1].split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))) continue;
      const to = target(file, spec);
      if (to !== null) deps.push(to);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The groups of files that reach each other (Tarjan's strongly connected components, larger than one). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) found.push(group.map((file) => relative(SRC, file)).sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  it('src/ has none at run time', () => {
    const graph = runtimeGraph();
    assert.ok([...graph.values()].reduce((sum, deps) => sum + deps.length, 0) > 500, 'the import graph was not read');
    assert.deepEqual(cycles(graph), []);
  });

  it('are found: two modules importing each other make one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'a']],
      ['c', []],
    ]);
    assert.deepEqual(cycles(new Map([...graph].map(([key, deps]) => [join(SRC, key), deps.map((dep) => join(SRC, dep))]))), [['a', 'b']]);
  });
});
