// Files, processes and the start lock of the embedded PostgreSQL (see embedded.ts).

import * as fs from 'node:fs/promises';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_POLL_MS = 100;
const LOCK_TIMEOUT_MS = 60_000;
const EMPTY_LOCK_STALE_MS = 5_000;

// ---------------------------------------------------------------------------
// Processes, pid files and the start lock

/** Returns the live postmaster described by postmaster.pid, or undefined if none/stale. */
export async function readRunningPostmaster(pidFile: string): Promise<{ pid: number; port: number } | undefined> {
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

export async function readPidFile(file: string): Promise<number | undefined> {
  const text = await readTextIfExists(file);
  const pid = Number(text?.trim());
  return text !== undefined && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
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

/** Bind port 0 on loopback to let the kernel choose a free port. */
export function findFreePort(): Promise<number> {
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

export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export async function readLogTail(file: string): Promise<string> {
  const text = (await readTextIfExists(file).catch(() => undefined)) ?? '';
  return text.split('\n').slice(-20).join('\n');
}
