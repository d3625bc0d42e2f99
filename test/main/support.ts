// Shared by the start-up and CLI tests: real `node src/main.ts` / `node src/cli.ts` processes
// on throw-away data directories, and a look at which postmasters serve a directory.
import { after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];

/** A fresh SVC_DATA_DIR; 0755 because mkdtemp's 0700 would lock out the postgres system user. */
export async function makeDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-main-test-'));
  await fs.chmod(dir, 0o755);
  dirs.push(dir);
  return dir;
}

/** The environment of a deployment on the embedded database in `dataDir` (nothing inherited that would redirect it). */
export function serviceEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SVC_OPERATOR_TOKEN', 'SVC_REQUIRE_HTTPS'])
    if (!(name in extra)) delete env[name];
  return env;
}

export interface Service {
  child: ChildProcess;
  output: string[];
  /** Resolves with the first output line matching `pattern` (rejects if the process exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `cwd`: the checkout to run (default this one); `args`: what node runs there (default the sources). */
export function startService(
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
  cwd = ROOT,
  args: readonly string[] = ['src/main.ts'],
): Service {
  const child = spawn(process.execPath, args, {
    cwd,
    env: serviceEnv(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
  const onLine = (line: string) => {
    output.push(line);
    for (const waiter of [...waiters]) {
      const match = line.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) => {
    const seen = output.map((line) => line.match(pattern)).find(Boolean);
    if (seen) return Promise.resolve(seen);
    return new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${pattern}; output:\n${output.join('\n')}`)),
        timeoutMs,
      );
      waiters.push({
        pattern,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`service exited (${signal ?? code}) before ${pattern}; output:\n${output.join('\n')}`));
      });
    });
  };
  return { child, output, waitFor, exited };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(dataDir: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawn(process.execPath, ['src/cli.ts', ...args], {
    cwd: ROOT,
    env: serviceEnv(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'close');
  return { code: code as number | null, stdout, stderr };
}

export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split('\n')[0]);
}

/** Alive and not a zombie (an orphaned postmaster may be reaped late by PID 1). */
export async function running(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && !/\) Z /.test(stat);
}

/** Postmasters serving this cluster: backends rewrite their argv, only the postmaster keeps `-D <dir>`. */
export async function postmasters(dataDir: string): Promise<number[]> {
  const pgDir = path.join(dataDir, 'pg');
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = (await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const d = argv.indexOf('-D');
    if (
      path.basename(argv[0] ?? '') === 'postgres' &&
      d >= 0 &&
      argv[d + 1] === pgDir &&
      (await running(Number(entry)))
    )
      pids.push(Number(entry));
  }
  return pids;
}

/** pg_ctl -w returns once postmaster.pid is gone; the process itself exits a moment later. */
export async function waitUntilStopped(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && (await running(pid)); i++) await sleep(100);
  return !(await running(pid));
}

/** Safety net for failed tests: no service, CLI or postmaster outlives the file. */
after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
  for (const dir of dirs) {
    for (const pid of await postmasters(dir)) {
      process.kill(pid, 'SIGINT');
      await waitUntilStopped(pid);
    }
    await fs.rm(dir, { recursive: true, force: true });
  }
});
