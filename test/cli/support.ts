// Runs the real `svc` entry point as a child process with its own config folder, as a user's shell would.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'src/cli.ts');
/** Each step spawns a fresh Node process while other test files run: seconds alone, far more under CI load. */
export const SLOW = { timeout: 120_000 };

export interface Home {
  dir: string;
  env: NodeJS.ProcessEnv;
}

/** A temporary HOME and XDG_CONFIG_HOME, and no SVC_* variables from the shell running the tests. */
export async function makeHome(): Promise<Home> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-cli-'));
  return { dir, env: { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config') } };
}

export function spawnSvc(home: Home, args: string[], extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { cwd: home.dir, env: { ...home.env, ...extraEnv } });
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `input` is written to the command's standard input; either way it is closed, so a reader gets end of file. */
export function svc(home: Home, args: string[], extraEnv: NodeJS.ProcessEnv = {}, input?: string): Promise<Result> {
  const child = spawnSvc(home, args, extraEnv);
  child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** svc … that must succeed; its stdout parsed as JSON. */
export async function svcJson(home: Home, args: string[]): Promise<any> {
  const result = await svc(home, [...args, '-o', 'json']);
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
