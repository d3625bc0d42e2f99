// A data directory the `postgres` system user cannot reach (under a 0700 folder, like a checkout in /root).
// As root the cluster goes to a folder of the service that user can reach and <dataDir>/pg links there;
// not as root there is no other user, so the cluster stays where it was asked to be.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { startEmbedded, type EmbeddedServer } from '../../src/db/embedded.ts';

const MODULE_URL = new URL('../../src/db/embedded.ts', import.meta.url).href;
const TEST_TIMEOUT = 60_000;
const ROOT = process.getuid?.() === 0;

const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: EmbeddedServer[] = [];

/** A folder as mkdtemp makes it: 0700, so no other user can enter it. */
async function privateDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'embedded-unreachable-'));
  dirs.push(dir);
  return dir;
}

/** Where this test lets relocated clusters go (not the machine-wide default), reachable by every user. */
async function openHomes(): Promise<string[]> {
  const dir = await privateDir();
  await fs.chmod(dir, 0o755);
  return [path.join(dir, 'home')];
}

async function start(dataDir: string, homes: string[], logs: string[] = []): Promise<EmbeddedServer> {
  const server = await startEmbedded({ dataDir, homes, log: (msg) => logs.push(msg) });
  servers.push(server);
  return server;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function running(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && !/\) Z /.test(stat);
}

/** Postmasters serving the cluster in `pgDir` (only the postmaster keeps `-D <dir>` in its argv). */
async function postmasters(pgDir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = (await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const d = argv.indexOf('-D');
    if (path.basename(argv[0] ?? '') === 'postgres' && d >= 0 && argv[d + 1] === pgDir && (await running(+entry)))
      pids.push(Number(entry));
  }
  return pids;
}

async function stopped(pgDir: string): Promise<number[]> {
  for (let i = 0; i < 50 && (await postmasters(pgDir)).length; i++) await sleep(100);
  return postmasters(pgDir);
}

/** Checks where the cluster went and returns its directory. */
async function assertPlacement(dataDir: string, homes: string[], server: EmbeddedServer): Promise<string> {
  const link = path.join(dataDir, 'pg');
  const st = await fs.lstat(link);
  if (!ROOT) {
    assert.ok(st.isDirectory(), 'not root: the cluster stays in the data dir');
    assert.equal(server.pgDir, link);
    return link;
  }
  assert.ok(st.isSymbolicLink(), '<dataDir>/pg points users to the cluster');
  const target = await fs.readlink(link);
  assert.equal(server.pgDir, target);
  assert.equal(path.dirname(path.dirname(target)), homes[0]);
  assert.equal((await fs.stat(target)).uid, (await uidOf('postgres')) ?? -1, 'the cluster belongs to postgres');
  return target;
}

async function uidOf(user: string): Promise<number | undefined> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((l) => l.startsWith(`${user}:`));
  return line === undefined ? undefined : Number(line.split(':')[2]);
}

after(async () => {
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

test(
  'a data dir under a 0700 folder starts, keeps its data across a restart, and stops',
  { timeout: TEST_TIMEOUT },
  async () => {
    const parent = await privateDir();
    const dataDir = path.join(parent, 'data');
    const homes = await openHomes();
    const logs: string[] = [];
    const server = await start(dataDir, homes, logs);
    assert.equal(server.owned, true);
    const pgDir = await assertPlacement(dataDir, homes, server);
    if (ROOT)
      assert.ok(
        logs.some((m) => m.includes(`so the cluster lives in ${path.dirname(pgDir)}`)),
        logs.join('\n'),
      );
    await query(server.url, "create table kept (v text); insert into kept values ('before restart')");
    await server.stop();
    assert.deepEqual(await stopped(pgDir), []);
    assert.equal((await fs.stat(parent)).mode & 0o777, 0o700, 'the folder we do not own is untouched');

    const againLogs: string[] = [];
    const again = await start(dataDir, homes, againLogs);
    assert.equal(again.pgDir, pgDir, 'the restart finds the same cluster');
    assert.ok(!againLogs.some((m) => m.includes('initialised')), againLogs.join('\n'));
    assert.deepEqual(await query(again.url, 'select v from kept'), [{ v: 'before restart' }]);
    await again.stop();
    assert.deepEqual(await stopped(pgDir), []);
  },
);

/** A separate node process that starts the server on `dataDir`, reports, and idles until killed. */
function spawnHolder(
  dataDir: string,
  homes: string[],
): { child: ChildProcess; info: Promise<{ owned: boolean; url: string }> } {
  const script = `
    import { startEmbedded } from ${JSON.stringify(MODULE_URL)};
    const s = await startEmbedded({ dataDir: ${JSON.stringify(dataDir)}, homes: ${JSON.stringify(homes)} });
    console.log(JSON.stringify({ owned: s.owned, url: s.url }));
    setInterval(() => {}, 1 << 30);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const info = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) return JSON.parse(line);
    throw new Error(`holder exited without reporting (code ${child.exitCode})`);
  })();
  return { child, info };
}

test(
  'two processes starting together on an unreachable data dir start one server, which a later start adopts',
  { timeout: TEST_TIMEOUT },
  async () => {
    const dataDir = path.join(await privateDir(), 'data');
    const homes = await openHomes();
    const holders = [spawnHolder(dataDir, homes), spawnHolder(dataDir, homes)];
    const infos = await Promise.all(holders.map((h) => h.info));
    assert.deepEqual(infos.map((i) => i.owned).sort(), [false, true]);
    assert.equal(infos[0]!.url, infos[1]!.url);

    for (const h of holders) {
      const exited = once(h.child, 'exit');
      h.child.kill('SIGKILL');
      await exited;
    }
    const logs: string[] = [];
    const server = await start(dataDir, homes, logs);
    const pgDir = await assertPlacement(dataDir, homes, server);
    assert.equal(server.url, infos[0]!.url, 'the orphaned server is adopted, not a second one started');
    assert.ok(
      logs.some((m) => m.includes('adopted')),
      logs.join('\n'),
    );
    assert.equal((await postmasters(pgDir)).length, 1);
    await server.stop();
    assert.deepEqual(await stopped(pgDir), []);
  },
);

test(
  'a home that postgres cannot reach, or that others can write to, is passed over for the next',
  { timeout: TEST_TIMEOUT },
  async () => {
    const dataDir = path.join(await privateDir(), 'data');
    const [good] = await openHomes();
    const closed = path.join(await privateDir(), 'home'); // inside a 0700 folder
    const planted = path.join(path.dirname(good!), 'planted');
    await fs.mkdir(planted);
    await fs.chmod(planted, 0o777); // as another user could make a name in /tmp
    const homes = [closed, planted, good!];
    const server = await start(dataDir, homes);
    const pgDir = await assertPlacement(dataDir, [good!], server);
    assert.deepEqual(await query(server.url, 'select 1 as n'), [{ n: 1 }]);
    if (ROOT) assert.deepEqual(await fs.readdir(planted), [], 'nothing kept where others can write');
    await server.stop();
    assert.deepEqual(await stopped(pgDir), []);
  },
);

test(
  'a cluster already inside a data dir that became unreachable is not moved behind the operator’s back',
  { timeout: TEST_TIMEOUT },
  async () => {
    const parent = await privateDir();
    await fs.chmod(parent, 0o755);
    const dataDir = path.join(parent, 'data');
    const homes = await openHomes();
    await (await start(dataDir, homes)).stop();
    assert.ok((await fs.lstat(path.join(dataDir, 'pg'))).isDirectory(), 'reachable: the cluster is made in place');
    await fs.chmod(parent, 0o700);
    if (ROOT) {
      await assert.rejects(start(dataDir, homes), /not reachable by the "postgres" system user.*mode 0700/s);
    } else {
      const server = await start(dataDir, homes);
      assert.deepEqual(await query(server.url, 'select 1 as n'), [{ n: 1 }]);
      await server.stop();
    }
  },
);
