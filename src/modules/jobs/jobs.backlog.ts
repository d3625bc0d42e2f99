import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Readings } from '../../platform/modules.ts';

/** Counts stop here: past it the backlog is "at least this many", and a scrape stays one short index walk. */
export const JOB_BACKLOG_CAP = 10_000;

/** The background jobs of every company not yet finished, and how long the oldest queued one has waited. */
export interface JobBacklog {
  queued: number;
  running: number;
  /** Seconds since the oldest queued job was created; 0 when none is queued. */
  oldest_queued_seconds: number;
}

/** One statement on the partial index of unfinished jobs (jobs_pending); finished jobs are history, not read. */
export async function jobBacklog(db: Db): Promise<JobBacklog> {
  const { rows } = await sql<JobBacklog>`select
      (select count(*) from (select 1 from jobs where status = 'queued' limit ${JOB_BACKLOG_CAP}) q)::int as queued,
      (select count(*) from (select 1 from jobs where status = 'running' limit ${JOB_BACKLOG_CAP}) r)::int as running,
      coalesce((select extract(epoch from now() - min(created_at)) from jobs where status = 'queued'), 0)::float8
        as oldest_queued_seconds`.execute(db);
  return rows[0]!;
}

/** The same figures as gauges of GET /metrics (database-wide: every instance reports the same). */
export const jobReadings: Readings = {
  gauges: [
    {
      name: 'svc_jobs_backlog',
      help: `Background jobs not finished, by status (queued, running), counted up to ${JOB_BACKLOG_CAP}`,
      labelNames: ['status'],
    },
    { name: 'svc_jobs_oldest_queued_seconds', help: 'Age of the oldest queued background job' },
  ],
  read: async (db) => {
    const backlog = await jobBacklog(db);
    return {
      svc_jobs_backlog: (['queued', 'running'] as const).map((status) => ({
        labels: { status },
        value: backlog[status],
      })),
      svc_jobs_oldest_queued_seconds: [{ value: backlog.oldest_queued_seconds }],
    };
  },
};
