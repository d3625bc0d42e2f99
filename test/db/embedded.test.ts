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
const TEST_TIMEOUT = 30_000;

const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: EmbeddedServer[] = [];

/** Fresh dir per test; 0755 because mkdtemp's 0700 would lock out the postgres user. */
async function makeDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'embedded-pg-test-'));
  await fs.chmod(dir, 0o755);
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, logs: string[] = []): Promise<EmbeddedServer> {
  const server = await startEmbedded({ dataDir, log: (msg) => logs.push(msg) });
  servers.push(server);
  return server;
}

async function selectOne(url: string): Promise<number> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    const res = await client.query<{ n: number }>('select 1::int as n');
    return res.rows[0]!.n;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const portOf = (url: string): number => Number(new URL(url).port);

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split('\n')[0]);
}

/** Postmasters serving this cluster: backends rewrite their argv, only the postmaster keeps `-D <dir>`. */
async function postmasters(dataDir: string): Promise<number[]> {
  const pgDir = path.join(dataDir, 'pg');
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const argv = cmdline.split('\0');
    const d = argv.indexOf('-D');
    if (path.basename(argv[0] ?? '') === 'postgres' && d >= 0 && argv[d + 1] === pgDir) pids.push(Number(entry));
  }
  return pids;
}

/**
 * Alive and not a zombie: orphaned postmasters are reparented to PID 1, which
 * may reap them late, and kill(pid, 0) succeeds on zombies.
 */
async function running(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && !/\) Z /.test(stat);
}

interface HolderInfo {
  owned: boolean;
  url: string;
}

/** A separate node process that starts the server, reports, and then idles until killed. */
function spawnHolder(dataDir: string): { child: ChildProcess; info: Promise<HolderInfo> } {
  const script = `
    import { startEmbedded } from ${JSON.stringify(MODULE_URL)};
    const s = await startEmbedded({ dataDir: process.env.EMBEDDED_TEST_DIR });
    console.log(JSON.stringify({ owned: s.owned, url: s.url }));
    setInterval(() => {}, 1 << 30);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, EMBEDDED_TEST_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const info = (async () => {
    const lines = createInterface({ input: child.stdout! });
    for await (const line of lines) return JSON.parse(line) as HolderInfo;
    throw new Error(`holder exited without reporting (code ${child.exitCode})`);
  })();
  return { child, info };
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Safety net for failed tests: fast-shutdown (SIGINT) any postmaster we left behind, by its pid. */
async function forceStop(dataDir: string): Promise<void> {
  for (const pid of await postmasters(dataDir)) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && (await running(pid)); i++) await sleep(100);
  }
}

after(async () => {
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const child of children) await killChild(child);
  for (const dir of dirs) {
    await forceStop(path.join(dir, 'data'));
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test(
  'first start initialises the cluster, serves queries, and stop() stops it',
  { timeout: TEST_TIMEOUT },
  async () => {
    const dataDir = path.join(await makeDir(), 'data');
    const logs: string[] = [];
    const server = await start(dataDir, logs);
    assert.equal(server.owned, true);
    assert.equal(server.dataDir, dataDir);
    assert.match(server.url, /^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    assert.equal(await selectOne(server.url), 1);
    assert.ok(logs.some((m) => m.includes('initialised')));
    assert.ok(logs.some((m) => m.includes('started')));
    assert.equal((await fs.stat(path.join(dataDir, 'pg-password'))).mode & 0o777, 0o600);
    assert.equal(Number(await fs.readFile(path.join(dataDir, 'owner.pid'), 'utf8')), process.pid);

    await server.stop();
    await server.stop(); // idempotent
    await assert.rejects(selectOne(server.url));
    assert.deepEqual(await postmasters(dataDir), []);
    await assert.rejects(fs.access(path.join(dataDir, 'owner.pid')));

    // Restart reuses the existing cluster and persisted password (no second initdb).
    const againLogs: string[] = [];
    const again = await start(dataDir, againLogs);
    assert.equal(await selectOne(again.url), 1);
    assert.ok(!againLogs.some((m) => m.includes('initialised')));
    await again.stop();
  },
);

test('second start on a running dir attaches as non-owner on the same port', { timeout: TEST_TIMEOUT }, async () => {
  const dataDir = path.join(await makeDir(), 'data');
  const first = await start(dataDir);
  const logs: string[] = [];
  const second = await start(dataDir, logs);
  assert.equal(first.owned, true);
  assert.equal(second.owned, false);
  assert.equal(portOf(second.url), portOf(first.url));
  assert.ok(logs.some((m) => m.includes('reused')));
  assert.equal(await selectOne(first.url), 1);
  assert.equal(await selectOne(second.url), 1);

  await second.stop(); // non-owner: no-op
  assert.equal(await selectOne(first.url), 1);
  assert.equal((await postmasters(dataDir)).length, 1);
  await first.stop();
  assert.deepEqual(await postmasters(dataDir), []);
});

test('a server left by a killed process is adopted and can be stopped', { timeout: TEST_TIMEOUT }, async () => {
  const dataDir = path.join(await makeDir(), 'data');
  const holder = spawnHolder(dataDir);
  const info = await holder.info;
  assert.equal(info.owned, true);
  const pidBefore = await postmasterPid(dataDir);
  await killChild(holder.child);
  assert.ok(pidBefore !== undefined && (await running(pidBefore)), 'postmaster survives its owner');

  const logs: string[] = [];
  const server = await start(dataDir, logs);
  assert.equal(server.owned, true);
  assert.ok(logs.some((m) => m.includes('adopted')));
  assert.equal(portOf(server.url), portOf(info.url));
  assert.equal(await postmasterPid(dataDir), pidBefore);
  assert.deepEqual(await postmasters(dataDir), [pidBefore]);
  assert.equal(Number(await fs.readFile(path.join(dataDir, 'owner.pid'), 'utf8')), process.pid);
  assert.equal(await selectOne(server.url), 1);

  await server.stop();
  // pg_ctl -w returns once postmaster.pid is gone; the process itself exits a moment later.
  for (let i = 0; i < 50 && (await running(pidBefore)); i++) await sleep(100);
  assert.equal(await running(pidBefore), false);
  assert.deepEqual(await postmasters(dataDir), []);
});

test(
  'concurrent starts from two processes on a fresh dir start exactly one server',
  { timeout: TEST_TIMEOUT },
  async () => {
    const dataDir = path.join(await makeDir(), 'data');
    const holders = [spawnHolder(dataDir), spawnHolder(dataDir)];
    const infos = await Promise.all(holders.map((h) => h.info));
    assert.deepEqual(infos.map((i) => i.owned).sort(), [false, true]);
    assert.equal(infos[0]!.url, infos[1]!.url);
    assert.equal((await postmasters(dataDir)).length, 1);
    for (const info of infos) assert.equal(await selectOne(info.url), 1);
    await assert.rejects(fs.access(path.join(dataDir, 'start.lock')));

    // Both holders die without stopping; we adopt the orphan and shut it down.
    for (const h of holders) await killChild(h.child);
    const server = await start(dataDir);
    assert.equal(server.owned, true);
    await server.stop();
    assert.deepEqual(await postmasters(dataDir), []);
  },
);

test('different data dirs run side by side on different ports', { timeout: TEST_TIMEOUT }, async () => {
  const dirA = path.join(await makeDir(), 'data');
  const dirB = path.join(await makeDir(), 'data');
  const [a, b] = await Promise.all([start(dirA), start(dirB)]);
  assert.equal(a.owned && b.owned, true);
  assert.notEqual(portOf(a.url), portOf(b.url));
  assert.equal(await selectOne(a.url), 1);
  assert.equal(await selectOne(b.url), 1);

  await a.stop();
  await assert.rejects(selectOne(a.url));
  assert.equal(await selectOne(b.url), 1);
  await b.stop();
});

/** The pid of a process that has certainly exited (and been reaped by us). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

test(
  'stale start.lock and postmaster.pid left by dead processes do not block a start',
  { timeout: TEST_TIMEOUT },
  async () => {
    const dataDir = path.join(await makeDir(), 'data');
    await (await start(dataDir)).stop();
    const dead = await deadPid();
    await fs.writeFile(path.join(dataDir, 'start.lock'), `${dead}\n`);
    await fs.writeFile(path.join(dataDir, 'owner.pid'), `${dead}\n`);
    const fakePid = [dead, path.join(dataDir, 'pg'), '0', '5', '', '127.0.0.1', '0 0', 'ready', ''].join('\n');
    await fs.writeFile(path.join(dataDir, 'pg', 'postmaster.pid'), fakePid);

    const logs: string[] = [];
    const server = await start(dataDir, logs);
    assert.equal(server.owned, true);
    assert.ok(logs.some((m) => m.includes('started')));
    assert.notEqual(portOf(server.url), 5);
    assert.equal(await selectOne(server.url), 1);
    await server.stop();
  },
);

// A data dir under a 0700 folder: test/db/embedded-unreachable.test.ts.
