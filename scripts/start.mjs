// `npm start` and `npm run worker`: runs dist/main.js (or dist/worker.js), the service compiled by
// scripts/build.ts, so the process never loads Node's TypeScript stripper (docs/decisions/0042).
// Plain JavaScript on purpose: a .ts launcher would load the stripper itself.
//
// A source changed since the last build (an edit, a checkout) is rebuilt first, in a child process so that
// this one stays free of the stripper. A folder this user cannot write falls back to running the sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const TREES = ['src', 'bench', 'sdk/src'];
const entry = process.argv[2] === 'worker' ? 'worker' : 'main';
// The entry's own arguments follow, as if it had been started directly.
if (entry === 'worker') process.argv.splice(2, 1);

/** The same stamp scripts/build.ts writes: newest source modification time and file count. */
function currentStamp(trees = TREES) {
  let newest = 0;
  let files = 0;
  for (const tree of trees) {
    for (const e of readdirSync(path.join(ROOT, tree), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || e.name.endsWith('.d.ts')) continue;
      newest = Math.max(newest, statSync(path.join(e.parentPath, e.name)).mtimeMs);
      files += 1;
    }
  }
  return { newest, files };
}

function builtStamp(file = path.join(ROOT, 'dist', '.build-stamp.json')) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function fresh() {
  const built = builtStamp();
  const now = currentStamp();
  return built !== undefined && built.newest === now.newest && built.files === now.files;
}

/** The web application (scripts/build-web.ts) has a stamp of its own; a checkout without web/ has nothing to build. */
function webFresh() {
  if (!existsSync(path.join(ROOT, 'web'))) return true;
  const built = builtStamp(path.join(ROOT, 'dist', 'web', '.build-stamp.json'));
  const now = currentStamp(['web']);
  return built !== undefined && built.newest === now.newest && built.files === now.files;
}

/** Builds dist/ (and dist/web when stale); answers why it failed, or undefined. */
function rebuild() {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    return String(error.stderr ?? error.message)
      .trim()
      .split('\n')
      .slice(-1)[0];
  }
}

const failed = fresh() && webFresh() ? undefined : rebuild();
// A failed web build still leaves the server's build to run (the web address then says it is not built).
const compiled = fresh();
if (failed && compiled) console.warn(`could not build the web application (${failed})`);
if (failed && !compiled) console.warn(`could not build dist/ (${failed}); running the TypeScript sources instead`);
const file = compiled ? path.join(ROOT, 'dist', 'src', `${entry}.js`) : path.join(ROOT, 'src', `${entry}.ts`);
await import(pathToFileURL(file).href);
