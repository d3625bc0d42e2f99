// The harness's side of its child processes: servers (service, floors) and load generators.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FromChild, Memory, ToChild } from './child.ts';
import type { LoadResult, LoadSpec } from './load.ts';

export interface ServerChild {
  name: string;
  pid: number;
  port: number;
  memory(gc?: boolean): Promise<Memory>;
  stop(): Promise<void>;
}

const HERE = import.meta.dirname;
/** The flags `npm start` gives the service (package.json config.nodeFlags), so servers run as they do there. */
const NODE_FLAGS: string[] = (
  process.env.SVC_BENCH_NODE_FLAGS ??
  JSON.parse(readFileSync(path.join(HERE, '..', 'package.json'), 'utf8')).config.nodeFlags
)
  .split(' ')
  .filter(Boolean);
const START_TIMEOUT_MS = 60_000;

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '';
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * The servers run compiled (dist/bench, built by `npm run bench` first), as `npm start` runs the service: no
 * TypeScript stripper in the measured processes. A checkout without dist/ runs the sources.
 */
function serverFile(script: string): string {
  const compiled = path.join(HERE, '..', 'dist', 'bench', script.replace(/\.ts$/, '.js'));
  return existsSync(compiled) ? compiled : path.join(HERE, script);
}

/** Forks `script` (in bench/) with its output in `logFile`; resolves once it listens. */
export async function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<ServerChild> {
  const fd = openSync(logFile, 'a');
  const child = fork(serverFile(script), [], {
    env,
    execArgv: ['--expose-gc', ...NODE_FLAGS],
    stdio: ['ignore', fd, fd, 'ipc'],
  });
  closeSync(fd);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s; log: ${logFile}`)),
      START_TIMEOUT_MS,
    );
    child.on('message', (m: FromChild) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${tail(logFile)}`));
    });
  });
  const waiting: Array<(m: Memory) => void> = [];
  child.on('message', (m: FromChild) => {
    if (m.type === 'memory') waiting.shift()?.(m);
  });
  const send = (m: ToChild) => child.send(m);
  return {
    name,
    pid: child.pid!,
    port,
    memory: (gc = false) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        send({ type: 'memory', gc });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

export interface CpuSample {
  at: number;
  cpuMicros: number;
}

/**
 * Runs `task` while sampling the server's RSS and CPU time; resolves with the task's result, the peak RSS
 * and the CPU samples (the first taken before the task starts, the last after it ends).
 */
export async function withRssSampling<T>(
  server: ServerChild,
  task: Promise<T>,
  everyMs = 500,
): Promise<{ result: T; peakRss: number; cpu: CpuSample[] }> {
  const cpu: CpuSample[] = [];
  const sample = async () => {
    const m = await server.memory();
    cpu.push({ at: Date.now(), cpuMicros: m.cpuMicros });
    return m.rss;
  };
  let peak = await sample();
  let done = false;
  const sampler = (async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (!done) peak = Math.max(peak, await sample());
    }
  })();
  try {
    const result = await task;
    return { result, peakRss: peak, cpu };
  } finally {
    done = true;
    await sampler;
    await sample();
  }
}

/** One load generator process (autocannon) for one measurement. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = fork(path.join(HERE, 'load.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const result = new Promise<LoadResult>((resolve, reject) => {
    child.once('message', (m: LoadResult) => resolve(m));
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code} without a result`)));
  });
  child.send(spec);
  try {
    return await result;
  } finally {
    child.kill();
  }
}
