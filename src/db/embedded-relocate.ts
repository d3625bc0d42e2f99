// As root, PostgreSQL runs as the `postgres` system user, who may be unable to reach the data dir or
// the binaries under node_modules (a checkout in /root, a 0700 temporary folder). Changing the
// permissions of folders the service does not own is not ours to do, so the cluster and a copy of
// (or hard links to) the binaries go to a folder the service owns and that user can reach.

import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureTraversable, findBlocker, isWithin, permits, R, X, type Binaries, type RunAs } from './embedded-host.ts';

export type RelocateLog = (msg: string, extra?: object) => void;

/** Where relocated clusters and staged binaries go, best first: one that survives reboots, then the temp folder. */
export function defaultHomes(): string[] {
  return ['/var/lib/service-api', path.join(os.tmpdir(), 'service-api')];
}

/**
 * The directory holding the cluster (`pg/`) with its password, log, lock and owner.pid: `dataDir`
 * itself, or, when the postgres user cannot reach `dataDir`, `<home>/data-<hash of dataDir>`, which
 * `dataDir/pg` then links to. The link is the record: later starts follow it whatever the
 * permissions are by then, so a restart always finds the same cluster.
 */
export async function placeServer(
  dataDir: string,
  runAs: RunAs,
  ours: string,
  homes: readonly string[],
  log: RelocateLog,
): Promise<string> {
  const link = path.join(dataDir, 'pg');
  const st = await fs.lstat(link).catch(ifMissing);
  if (st?.isSymbolicLink()) return warnIfTemporary(await followLink(link, runAs), log);
  if (st) {
    await ensureTraversable(dataDir, runAs, ours, log);
    return dataDir;
  }
  const blocker = await findBlocker(dataDir, runAs, ours, log);
  if (!blocker) return dataDir;
  return warnIfTemporary(await relocate(dataDir, blocker, runAs, homes, log), log);
}

async function relocate(
  dataDir: string,
  blocker: { dir: string; mode: number },
  runAs: RunAs,
  homes: readonly string[],
  log: RelocateLog,
): Promise<string> {
  const link = path.join(dataDir, 'pg');
  const home = await pickHome(homes, runAs, log);
  const serverDir = path.join(home, `data-${digest(await fs.realpath(dataDir))}`);
  await ownDir(serverDir);
  await fs.writeFile(path.join(serverDir, 'DATA_DIR'), `cluster of the service data directory ${dataDir}\n`);
  try {
    await fs.symlink(path.join(serverDir, 'pg'), link);
  } catch (err) {
    // A concurrent start linked first: its link is the one every start follows.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return followLink(link, runAs);
    throw err;
  }
  log(
    `embedded postgres: ${dataDir} is not reachable by the postgres system user ` +
      `(${blocker.dir} has mode ${octal(blocker.mode)}), so the cluster lives in ${serverDir} and ${link} links there`,
    { dataDir, serverDir },
  );
  return serverDir;
}

function warnIfTemporary(serverDir: string, log: RelocateLog): string {
  if (isWithin(serverDir, os.tmpdir())) {
    log(`embedded postgres: the cluster in ${serverDir} is in the temporary folder, which may be emptied at reboot`, {
      serverDir,
    });
  }
  return serverDir;
}

async function followLink(link: string, runAs: RunAs): Promise<string> {
  const serverDir = path.dirname(path.resolve(path.dirname(link), await fs.readlink(link)));
  // A home in the temp folder may have been emptied by a reboot: make it again (a new cluster follows).
  await ownDir(path.dirname(serverDir));
  await ownDir(serverDir);
  const blocker = await findBlocker(serverDir, runAs, undefined, () => {});
  if (blocker) {
    throw new Error(
      `embedded postgres: ${link} links to ${serverDir}, which the postgres system user cannot reach ` +
        `(${blocker.dir} has mode ${octal(blocker.mode)})`,
    );
  }
  return serverDir;
}

/**
 * `bins` when the postgres user can run them where they are; otherwise the same files staged once
 * under a home, as hard links where that user may read the file (free, no copy) or else as copies.
 * The tree is staged whole because postgres finds lib/ and share/ relative to its own executable.
 */
export async function reachableBinaries(
  bins: Binaries,
  runAs: RunAs,
  homes: readonly string[],
  log: RelocateLog,
): Promise<Binaries> {
  const native = path.dirname(path.dirname(bins.postgres));
  if (!(await findBlocker(native, runAs, undefined, log)) && (await usable(native, runAs))) return bins;
  const home = await pickHome(homes, runAs, log);
  const st = await fs.stat(bins.postgres);
  // A reinstalled package gets a fresh copy; the same one is shared by every start.
  const dest = path.join(home, `postgres-${digest(`${await fs.realpath(native)}\n${st.size}\n${st.mtimeMs}`)}`);
  if (await fs.lstat(dest).catch(ifMissing)) await assertOwnDir(dest);
  else await stage(native, dest, runAs);
  log(`embedded postgres: the postgres system user cannot run the binaries in ${native}; running them from ${dest}`, {
    binaries: dest,
  });
  const moved = (file: string) => path.join(dest, path.relative(native, file));
  return { initdb: moved(bins.initdb), pg_ctl: moved(bins.pg_ctl), postgres: moved(bins.postgres) };
}

/** Every directory readable and traversable, every file readable, and executable where it is meant to be. */
async function usable(dir: string, runAs: RunAs): Promise<boolean> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue; // its target is checked as itself
    const st = await fs.stat(file);
    if (!entry.isDirectory()) {
      if (!permits(st, runAs, need(st))) return false;
    } else if (!permits(st, runAs, R | X) || !(await usable(file, runAs))) return false;
  }
  return true;
}

/** Built beside its final name and renamed into place, so a half-staged tree is never used. */
async function stage(native: string, dest: string, runAs: RunAs): Promise<void> {
  const tmp = `${dest}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    await copyTree(native, tmp, runAs);
    await fs.rename(tmp, dest);
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    if (!(await fs.lstat(dest).catch(ifMissing))) throw err; // else a concurrent start staged it first
  }
}

async function copyTree(from: string, to: string, runAs: RunAs): Promise<void> {
  await fs.mkdir(to);
  await fs.chmod(to, 0o755); // whatever the umask
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(source, target, runAs);
    else if (entry.isSymbolicLink()) await fs.symlink(await fs.readlink(source), target);
    else if (entry.isFile()) await placeFile(source, target, runAs);
  }
}

async function placeFile(source: string, target: string, runAs: RunAs): Promise<void> {
  const st = await fs.stat(source);
  if (permits(st, runAs, need(st))) {
    try {
      await fs.link(source, target);
      return;
    } catch {
      // another file system: copy
    }
  }
  // A copy is ours, so its mode may be fixed (a root umask of 077 leaves node_modules private).
  await fs.copyFile(source, target);
  await fs.chmod(target, (st.mode & 0o111) !== 0 ? 0o755 : 0o644);
}

const need = (st: { mode: number }) => ((st.mode & 0o111) !== 0 ? R | X : R);

async function pickHome(homes: readonly string[], runAs: RunAs, log: RelocateLog): Promise<string> {
  for (const home of homes) {
    let reason: string;
    try {
      await ownDir(home);
      const blocker = await findBlocker(home, runAs, undefined, log);
      if (!blocker) return home;
      reason = `${blocker.dir} has mode ${octal(blocker.mode)}`;
    } catch (err) {
      reason = String(err);
    }
    log(`embedded postgres: cannot use ${home} for files the postgres system user must reach`, { reason });
  }
  throw new Error(
    `embedded postgres: no folder that the postgres system user can reach for the cluster or binaries (tried ${homes.join(', ')})`,
  );
}

/** mkdir -p giving what it creates 0755 whatever the umask, then refusing a folder someone else planted. */
async function ownDir(dir: string): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true });
  if (first !== undefined) {
    for (let d = dir; isWithin(d, first); d = path.dirname(d)) await fs.chmod(d, 0o755);
  }
  await assertOwnDir(dir);
}

/** Binaries run and a cluster kept here must not be replaceable by another user (a name in /tmp can be taken). */
async function assertOwnDir(dir: string): Promise<void> {
  const st = await fs.lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) {
    throw new Error(`embedded postgres: ${dir} must be a directory owned by uid ${uid} that no one else can write`);
  }
}

function ifMissing(err: unknown): undefined {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw err;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const octal = (mode: number) => mode.toString(8).padStart(4, '0');
