// Compiles the service to plain JavaScript in dist/ (run by `npm install` through `prepare`, and by
// scripts/start.mjs when a source changed since). The server then runs without Node's TypeScript
// stripper, which costs ~25 MB of resident memory per process (docs/decisions/0042).
//
// Node's own stripper does the work (no compiler dependency, nothing type-checked: `npm test` runs tsc):
// types become blanks, so every line and column of dist/x.js is that of src/x.ts and stack traces point
// at the sources; relative `.ts` specifiers become `.js`, the same length. Other files (migrations) are copied.
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { buildWeb } from './build-web.ts';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** The trees compiled: the service (with the SDK its CLI uses), and the benchmark's servers (measured as `npm start` runs). */
export const TREES = ['src', 'bench', 'sdk/src'];
export const DIST = path.join(ROOT, 'dist');
export const STAMP = '.build-stamp.json';

/** `from './x.ts'`, `import './x.ts'`, `import('./x.ts')`: relative specifiers only (packages are left alone). */
const SPECIFIER = /(\b(?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"\n]*?)\.ts\2/g;
const LEFT_OVER = /\b(?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"\n]*\.ts['"]/;

export interface Stamp {
  /** Newest modification time of any source file, and how many there are (a deleted file changes the count). */
  newest: number;
  files: number;
}

/** Every file under the trees, with its modification time. */
export async function sources(root = ROOT, trees = TREES): Promise<Array<{ file: string; mtime: number }>> {
  const out: Array<{ file: string; mtime: number }> = [];
  for (const tree of trees) {
    for (const entry of await readdir(path.join(root, tree), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith('.d.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      out.push({ file, mtime: (await stat(file)).mtimeMs });
    }
  }
  return out;
}

export function stampOf(files: ReadonlyArray<{ mtime: number }>): Stamp {
  return { newest: Math.max(0, ...files.map((f) => f.mtime)), files: files.length };
}

export function compile(source: string, file: string): string {
  const js = stripTypeScriptTypes(source, { mode: 'strip' }).replace(SPECIFIER, '$1$2$3.js$2');
  if (LEFT_OVER.test(js)) throw new Error(`${file}: a relative .ts import was not rewritten`);
  return js;
}

async function emit(file: string, into: string): Promise<void> {
  const relative = path.relative(ROOT, file);
  const target = path.join(into, relative.replace(/\.ts$/, '.js'));
  await mkdir(path.dirname(target), { recursive: true });
  if (file.endsWith('.ts')) await writeFile(target, compile(await readFile(file, 'utf8'), relative));
  else await copyFile(file, target);
}

/** Builds into a fresh folder and swaps it in, so a process starting meanwhile never sees half a build. */
export async function build(): Promise<Stamp> {
  const files = await sources();
  const next = `${DIST}.${process.pid}`;
  await rm(next, { recursive: true, force: true });
  for (const { file } of files) await emit(file, next);
  const stamp = stampOf(files);
  await writeFile(path.join(next, STAMP), JSON.stringify(stamp) + '\n');
  // The web application is built on its own (buildWeb): a server rebuild keeps it.
  await rename(path.join(DIST, 'web'), path.join(next, 'web')).catch(() => undefined);
  const old = `${DIST}.old.${process.pid}`;
  await rename(DIST, old).catch(() => undefined);
  await rename(next, DIST);
  await rm(old, { recursive: true, force: true });
  return stamp;
}

if (import.meta.main) {
  // The stripper announces itself as experimental on every run; the build is tested, the warning is noise.
  process.removeAllListeners('warning');
  const started = performance.now();
  const stamp = await build();
  console.log(`built dist/ (${stamp.files} files) in ${Math.round(performance.now() - started)} ms`);
  const web = await buildWeb({ force: process.argv.includes('--force') });
  if (web) console.log(web);
}
