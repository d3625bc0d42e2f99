// `npm start` and `npm run worker`: runs dist/main.js (or dist/worker.js), the service compiled by
// scripts/build.ts, so the process never loads Node's TypeScript stripper (docs/decisions/0042).
// Plain JavaScript on purpose: a .ts launcher would load the stripper itself.
//
// A source changed since the last build (an edit, a checkout) is rebuilt first, in a child process so that
// this one stays free of the stripper. A folder this user cannot write falls back to running the sources.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const TREES = ['src', 'bench', 'sdk/src'];
const entry = process.argv[2] === 'worker' ? 'worker' : 'main';
// The entry's own arguments follow, as if it had been started directly.
if (entry === 'worker') process.argv.splice(2, 1);

/** The same stamp scripts/build.ts writes: newest source modification time and file count. */
function currentStamp() {
  let newest = 0;
  let files = 0;
  for (const tree of TREES) {
    for (const e of readdirSync(path.join(ROOT, tree), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || e.name.endsWith('.d.ts')) continue;
      newest = Math.max(newest, statSync(path.join(e.parentPath, e.name)).mtimeMs);
      files += 1;
    }
  }
  return { newest, files };
}

function builtStamp() {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'dist', '.build-stamp.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function fresh() {
  const built = builtStamp();
  const now = currentStamp();
  return built !== undefined && built.newest === now.newest && built.files === now.files;
}

function rebuild() {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return true;
  } catch (error) {
    const why = String(error.stderr ?? error.message).trim().split('\n').slice(-1)[0];
    console.warn(`could not build dist/ (${why}); running the TypeScript sources instead`);
    return false;
  }
}

const compiled = fresh() || rebuild();
const file = compiled ? path.join(ROOT, 'dist', 'src', `${entry}.js`) : path.join(ROOT, 'src', `${entry}.ts`);
await import(pathToFileURL(file).href);
