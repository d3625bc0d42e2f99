// `svc jobs wait ID`: polls GET /jobs/{id} until it is finished (exit 0) or failed (exit 1). A bar on a terminal,
// a line per change otherwise (a log file should not fill with carriage returns).
import type { Command } from 'commander';
import { resolveProfile } from './config.ts';
import { CliError, EXIT, usage } from './errors.ts';
import { call } from './http.ts';
import { formatOf, render } from './output.ts';

interface Job {
  id: number;
  type: string;
  status: 'queued' | 'running' | 'finished' | 'failed';
  total_count: number | null;
  processed_count: number;
  error: string | null;
}

const BAR_WIDTH = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function progressLine(job: Job, bar: boolean): string {
  const total = job.total_count;
  const counts = total === null ? `${job.processed_count}` : `${job.processed_count}/${total}`;
  if (!bar) return `job ${job.id} ${job.type}: ${job.status} ${counts}`;
  const share = total ? Math.min(1, job.processed_count / total) : job.status === 'finished' ? 1 : 0;
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${counts} ${job.status}`;
}

async function runWait(id: string, cmd: Command): Promise<void> {
  const opts = cmd.optsWithGlobals();
  if (!/^\d+$/.test(id)) throw usage(`<job_id> must be an integer, got "${id}"`);
  const interval = Number(opts.interval);
  const timeout = opts.timeout === undefined ? Infinity : Number(opts.timeout) * 1000;
  if (!(interval >= 50) || !(timeout > 0)) throw usage('--interval must be ≥ 50 (ms) and --timeout > 0 (s)');
  const format = formatOf(opts.output);
  const { profile } = await resolveProfile(opts.profile);
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let last = '';
  for (;;) {
    const answer = await call(profile, 'GET', `/jobs/${id}`);
    const job = (answer.body as { data: Job }).data;
    const line = progressLine(job, tty);
    if (line !== last) process.stderr.write(tty ? `\r${line}` : `${line}\n`);
    last = line;
    if (job.status === 'finished' || job.status === 'failed') {
      if (tty) process.stderr.write('\n');
      console.log(render(answer.body, format));
      if (job.status === 'failed') throw new CliError('JOB_FAILED', job.error ?? `job ${id} failed`, EXIT.failed);
      return;
    }
    if (Date.now() - started > timeout) throw new CliError('TIMEOUT', `job ${id} is still ${job.status}`, EXIT.failed);
    await sleep(interval);
  }
}

export function addJobsWait(jobs: Command): void {
  jobs
    .command('wait')
    .description('poll a job until it ends: exit 0 when finished, 1 when failed')
    .argument('<job_id>')
    .option('--interval <ms>', 'between polls', '1000')
    .option('--timeout <seconds>', 'give up (exit 1) after this long')
    .action((id: string, _opts, cmd: Command) => runWait(id, cmd));
}
