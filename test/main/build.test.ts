// `npm start` runs the service compiled to JavaScript (scripts/build.ts, scripts/start.mjs; docs/decisions/0042):
// no TypeScript stripper in the server process, a rebuild when a source changed, and the sources when the
// build cannot be made.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compile, sources, stampOf } from '../../scripts/build.ts';
import { makeDataDir, startService, type Service } from './support.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const cleanup: string[] = [];
after(() => Promise.all(cleanup.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

/** A checkout without dist/: the compiled trees, scripts and package.json copied, node_modules linked. */
async function checkout(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-build-'));
  cleanup.push(folder);
  await fs.chmod(folder, 0o755);
  for (const tree of ['src', 'bench', 'sdk/src', 'scripts'])
    await fs.cp(path.join(REPO, tree), path.join(folder, tree), { recursive: true });
  await fs.copyFile(path.join(REPO, 'package.json'), path.join(folder, 'package.json'));
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(folder, 'node_modules'));
  return folder;
}

/** Every module the server process loads ending in .ts is printed: none may appear when it runs dist/. */
async function tsWatch(folder: string): Promise<string> {
  const file = path.join(folder, 'ts-watch.mjs');
  await fs.writeFile(
    file,
    `import { registerHooks } from 'node:module';
registerHooks({ load(url, context, next) { if (url.endsWith('.ts')) console.error('TS-LOADED ' + url); return next(url, context); } });\n`,
  );
  return file;
}

async function start(folder: string, dataDir: string): Promise<{ service: Service; baseUrl: string; headers: object }> {
  const watch = await tsWatch(folder);
  const service = startService(dataDir, {}, folder, ['--import', watch, 'scripts/start.mjs']);
  const [, baseUrl] = await service.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
  // The first start provisions the demo company; later ones find its credentials where it left them.
  await service.waitFor(/Demo company provisioned|demo credentials from the first start/, 60_000);
  const demo = JSON.parse(await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
  return { service, baseUrl: baseUrl!, headers: { 'x-service-company': demo.company_id, 'x-api-key': demo.api_key } };
}

async function stop(service: Service): Promise<void> {
  service.child.kill('SIGTERM');
  assert.deepEqual(await service.exited, { code: 0, signal: null });
}

const tsLoaded = (service: Service) => service.output.filter((line) => line.startsWith('TS-LOADED'));

test('compile blanks the types in place and rewrites relative .ts specifiers only', () => {
  const source = [
    "import type { A } from './a.ts';",
    "import { type B, c } from '../b.ts';",
    "export { d } from './d.ts';",
    "import pg from 'pg';",
    "const e: number = await import('./e.ts').then((m: { x: number }) => m.x);",
    "const note = 'see tasks.ts';",
  ].join('\n');
  const js = compile(source, 'example.ts');
  const lines = js.split('\n');
  const before = source.split('\n');
  assert.deepEqual(
    lines.map((line) => line.length),
    before.map((line) => line.length),
    'every line and column stays where it was',
  );
  const words = (line: string | undefined) => line!.trim().replace(/\s+/g, ' ');
  assert.equal(words(lines[0]), '', 'a type-only import disappears');
  assert.equal(words(lines[1]), "import { c } from '../b.js';", 'a relative .ts specifier becomes .js');
  assert.equal(words(lines[2]), "export { d } from './d.js';");
  assert.equal(lines[3], "import pg from 'pg';", 'package specifiers are untouched');
  assert.equal(words(lines[4]), "const e = await import('./e.js').then((m ) => m.x);", 'dynamic imports too');
  assert.equal(lines[5], "const note = 'see tasks.ts';", 'strings that are not imports are untouched');
});

test('npm start on a checkout without dist/ builds it, then runs the service with no TypeScript loaded', async () => {
  const folder = await checkout();
  const dataDir = await makeDataDir();
  const { service, baseUrl, headers } = await start(folder, dataDir);
  const clients = await fetch(`${baseUrl}/api/v3/clients`, { headers: headers as Record<string, string> });
  assert.equal(clients.status, 200);
  assert.deepEqual(tsLoaded(service), [], 'the server process loads only dist/*.js');
  const stamp = JSON.parse(await fs.readFile(path.join(folder, 'dist', '.build-stamp.json'), 'utf8'));
  assert.deepEqual(stamp, stampOf(await sources(folder)), 'the stamp describes the sources it was built from');
  const built = await fs.readFile(path.join(folder, 'dist', 'src', 'main.js'), 'utf8');
  const original = await fs.readFile(path.join(folder, 'src', 'main.ts'), 'utf8');
  assert.equal(built.split('\n').length, original.split('\n').length, 'stack traces point at the same lines');
  const migrations = await fs.readdir(path.join(folder, 'dist', 'src', 'db', 'migrations'));
  assert.deepEqual(migrations, await fs.readdir(path.join(folder, 'src', 'db', 'migrations')), 'migrations copied');
  await stop(service);
});

test('an edited source is rebuilt before the start, and a build that fails runs the sources', async () => {
  const folder = await checkout();
  const dataDir = await makeDataDir();
  const first = await start(folder, dataDir);
  await stop(first.service);

  const config = path.join(folder, 'src', 'config.ts');
  await fs.appendFile(config, '// edited after the build\n');
  const edited = await start(folder, dataDir);
  assert.deepEqual(tsLoaded(edited.service), []);
  const rebuilt = await fs.readFile(path.join(folder, 'dist', 'src', 'config.js'), 'utf8');
  assert.ok(rebuilt.endsWith('// edited after the build\n'), 'the change reached dist/');
  await stop(edited.service);

  // An enum cannot be stripped to JavaScript: the build fails, and the start falls back to the sources.
  await fs.writeFile(path.join(folder, 'bench', 'not-erasable.ts'), 'export enum Kind { A }\n');
  const fallback = await start(folder, dataDir);
  assert.ok(
    fallback.service.output.some(
      (line) => line.includes('could not build dist/') && line.includes('running the TypeScript sources'),
    ),
    fallback.service.output.join('\n'),
  );
  assert.ok(
    tsLoaded(fallback.service).some((line) => line.endsWith('/src/main.ts')),
    'the sources run',
  );
  const clients = await fetch(`${fallback.baseUrl}/api/v3/clients`, {
    headers: fallback.headers as Record<string, string>,
  });
  assert.equal(clients.status, 200);
  await stop(fallback.service);
});
