// Builds the web application (web/, Vite + React) into dist/web, where the service serves it (docs/decisions/0052).
// Run by `npm install` (prepare) and `npm run build` after the server's build, and by scripts/start.mjs and
// scripts/test.ts when a file under web/ changed since. Each asset is also written brotli- and gzip-compressed,
// so the service sends the smaller file without compressing per request.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '..');
export const WEB_SOURCES = path.join(ROOT, 'web');
export const WEB_DIST = path.join(ROOT, 'dist', 'web');
const STAMP = '.build-stamp.json';
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
const MIN_COMPRESSED_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

interface WebStamp {
  newest: number;
  files: number;
}

async function webStamp(): Promise<WebStamp | undefined> {
  const entries = await readdir(WEB_SOURCES, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (!entries) return undefined;
  let newest = 0;
  let files = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
    files += 1;
  }
  return { newest, files };
}

async function builtStamp(): Promise<WebStamp | undefined> {
  return readFile(path.join(WEB_DIST, STAMP), 'utf8').then(
    (text) => JSON.parse(text) as WebStamp,
    () => undefined,
  );
}

/** Whether dist/web was built from the web/ files as they are now (true when there is no web/ at all). */
export async function webFresh(): Promise<boolean> {
  const now = await webStamp();
  if (!now) return true;
  const built = await builtStamp();
  return built?.newest === now.newest && built.files === now.files;
}

async function compressAll(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    if (bytes.length < MIN_COMPRESSED_BYTES) continue;
    const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
    await writeFile(`${file}.br`, await brotli(bytes, { params }));
    await writeFile(`${file}.gz`, await gzipped(bytes, { level: 9 }));
    count += 1;
  }
  return count;
}

/** Builds dist/web when web/ changed (or always with force); answers a line for the log, or undefined if nothing ran. */
export async function buildWeb(options: { force?: boolean } = {}): Promise<string | undefined> {
  const stamp = await webStamp();
  if (!stamp || (!options.force && (await webFresh()))) return undefined;
  const started = performance.now();
  const vite = await import('vite');
  await rm(WEB_DIST, { recursive: true, force: true });
  await vite.build({ configFile: path.join(WEB_SOURCES, 'vite.config.ts'), logLevel: 'warn' });
  const compressed = await compressAll(WEB_DIST);
  await writeFile(path.join(WEB_DIST, STAMP), JSON.stringify(stamp) + '\n');
  return `built dist/web (${compressed} files compressed) in ${Math.round(performance.now() - started)} ms`;
}
