// `npm start` from a checkout inside a folder no other user may enter (root's home folder, a 0700
// temporary folder): as root, PostgreSQL runs as the `postgres` system user, who can reach neither the
// binaries under node_modules nor ./data there. The start must work without touching that folder.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { running, startService, waitUntilStopped, type Service } from './support.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const AS_ROOT = process.getuid?.() === 0;
const CURL =
  /curl -s -H 'X-Service-Company: ([0-9a-f-]{36})' -H 'X-API-Key: (svc_live_\S+)' (http:\/\/127\.0\.0\.1:\d+)\/api\/v3\/clients$/;

const cleanup: string[] = [];
const clusters: string[] = [];

/** A checkout in a fresh 0700 folder: src and package.json copied, node_modules hard-linked (the same files). */
async function privateCheckout(): Promise<{ folder: string; app: string }> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-private-'));
  cleanup.push(folder);
  const app = path.join(folder, 'app');
  await fs.mkdir(app);
  await fs.cp(path.join(REPO, 'src'), path.join(app, 'src'), { recursive: true });
  await fs.copyFile(path.join(REPO, 'package.json'), path.join(app, 'package.json'));
  const modules = [path.join(REPO, 'node_modules'), path.join(app, 'node_modules')];
  await promisify(execFile)('cp', ['-al', ...modules]).catch(() => promisify(execFile)('cp', ['-a', ...modules]));
  return { folder, app };
}

async function postmasterPid(pgDir: string): Promise<number | undefined> {
  const text = await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split('\n')[0]);
}

/** Where start-up says the cluster and (as root) the binaries are. */
function placement(service: Service, dataDir: string): { pgDir: string; binaries: string | undefined } {
  const lines = service.output.join('\n');
  const pgDir = /embedded PostgreSQL data lives in (\S+)/.exec(lines)?.[1];
  assert.ok(pgDir, lines);
  const binaries = /running them from (\S+)/.exec(lines)?.[1];
  if (AS_ROOT) {
    assert.ok(lines.includes(`data lives in ${pgDir} (linked from ${path.join(dataDir, 'pg')})`), lines);
    assert.ok(binaries, `as root the log says where the binaries run from:\n${lines}`);
  } else {
    assert.equal(pgDir, path.join(dataDir, 'pg'), 'not root: the cluster stays in the data dir');
    assert.equal(binaries, undefined);
  }
  return { pgDir, binaries };
}

async function stop(service: Service, signal: NodeJS.Signals, pgDir: string): Promise<void> {
  const pid = await postmasterPid(pgDir);
  assert.ok(pid, 'a postmaster serves the cluster');
  service.child.kill(signal);
  assert.deepEqual(await service.exited, { code: 0, signal: null });
  assert.ok(service.output.some((l) => l.includes('embedded postgres stopped')));
  assert.equal(await waitUntilStopped(pid), true, 'the postmaster process is gone');
}

after(async () => {
  for (const pgDir of clusters) {
    const pid = await postmasterPid(pgDir);
    if (pid === undefined || !(await running(pid))) continue;
    process.kill(pid, 'SIGINT');
    await waitUntilStopped(pid);
  }
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

test(
  'npm start from a checkout in a 0700 folder serves requests, keeps its data across a restart, and stops',
  { timeout: 90_000 },
  async () => {
    const { folder, app } = await privateCheckout();
    const dataDir = path.join(app, 'data');
    const first = startService(dataDir, { LOG_LEVEL: 'info' }, app);
    const [, companyId, key, baseUrl] = await first.waitFor(CURL, 60_000);
    const { pgDir, binaries } = placement(first, dataDir);
    clusters.push(pgDir);
    if (AS_ROOT) {
      // Ours to remove: named after this checkout's data dir and binaries.
      cleanup.push(path.dirname(pgDir), binaries!);
      assert.equal(await fs.readlink(path.join(dataDir, 'pg')), pgDir, 'data/pg points users to the cluster');
      const exe = await fs.readlink(`/proc/${await postmasterPid(pgDir)}/exe`);
      assert.equal(exe, path.join(binaries!, 'bin', 'postgres'), 'postgres runs from the reachable copy');
    }
    assert.equal((await fs.stat(folder)).mode & 0o777, 0o700, 'the folder the service does not own is untouched');
    const credentials = JSON.parse(await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    assert.equal(credentials.api_key, key, 'the demo credentials stay in the data dir');

    const headers = { 'x-service-company': companyId!, 'x-api-key': key! };
    const created = await fetch(`${baseUrl}/api/v3/clients`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept Ltd' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    await stop(first, 'SIGTERM', pgDir);

    const second = startService(dataDir, { LOG_LEVEL: 'info' }, app);
    const [, secondUrl] = await second.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) /, 60_000);
    await second.waitFor(/demo credentials from the first start/);
    assert.deepEqual(placement(second, dataDir), { pgDir, binaries }, 'the restart finds the same cluster');
    const list = await fetch(`${secondUrl}/api/v3/clients`, { headers });
    assert.equal(list.status, 200);
    const names = ((await list.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name);
    assert.deepEqual(names, ['Kept Ltd'], 'the data survived the restart');
    await stop(second, 'SIGINT', pgDir);
  },
);
