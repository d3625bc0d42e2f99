// The layers, read from the import statements themselves: a module's index.ts is its only public face,
// modules do not import each other in a loop, and the lower layers never import the upper ones.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Relative imports of every file under src/, resolved to paths relative to src/. */
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sourceFiles(SRC)) {
    const text = await readFile(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.relative(SRC, path.resolve(path.dirname(file), m[1]!)));
    graph.set(path.relative(SRC, file), targets);
  }
  return graph;
}

const moduleOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1]! : undefined);
const layerOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : 'root');

const graph = await importGraph();

test('a module imports another module only through its index.ts', () => {
  const offenders: string[] = [];
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    for (const target of targets) {
      const to = moduleOf(target);
      if (to === undefined || to === from || from === undefined) continue;
      if (target !== `modules/${to}/index.ts`) offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, [], 'import modules/<name>/index.ts instead');
});

test('outside src/modules, code imports a module only through its index.ts (or the module list)', () => {
  const offenders: string[] = [];
  for (const [file, targets] of graph) {
    if (moduleOf(file) !== undefined) continue;
    for (const target of targets) {
      const to = moduleOf(target);
      if (to !== undefined && target !== `modules/${to}/index.ts` && target !== 'modules/index.ts')
        offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('there is no import loop between modules', () => {
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = moduleOf(target);
      if (to !== undefined && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const loops: string[] = [];
  const visit = (node: string, trail: string[]) => {
    if (trail.includes(node)) {
      loops.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of edges.keys()) visit(node, []);
  assert.deepEqual([...new Set(loops)], []);
});

test('lower layers do not import upper ones: db and platform never import modules, background, or the entry points', () => {
  const allowed: Record<string, string[]> = {
    db: ['db', 'root'],
    platform: ['db', 'platform', 'root'],
    modules: ['db', 'platform', 'modules', 'root'],
  };
  const entryPoints = new Set(['app.ts', 'main.ts', 'worker.ts', 'cli.ts']);
  const offenders: string[] = [];
  for (const [file, targets] of graph) {
    const layer = layerOf(file);
    const may = allowed[layer];
    if (!may) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (!may.includes(to) || (to === 'root' && entryPoints.has(target))) offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('no import has a side effect: nothing is imported for its effects alone', async () => {
  const bare = /^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
  const offenders: string[] = [];
  for (const file of graph.keys()) {
    const text = await readFile(path.join(SRC, file), 'utf8');
    for (const m of text.matchAll(bare)) offenders.push(`${file} imports ${m[1]} for its side effects`);
  }
  assert.deepEqual(offenders, []);
});

/** Groups of files that import each other in a loop (strongly connected components of more than one file). */
function fileLoops(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) visit(target);
      if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, low.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const loop = stack.splice(stack.indexOf(file));
    if (loop.length > 1) loops.push(loop);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return loops;
}

test('no file imports itself back through other files (e.g. a store importing the index that picks it)', () => {
  assert.deepEqual(fileLoops(), []);
});
