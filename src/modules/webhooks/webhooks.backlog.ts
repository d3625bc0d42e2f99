import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Readings } from '../../platform/modules.ts';

/** Counts stop here: past it the backlog is "at least this many", and a scrape stays one short index walk. */
export const BACKLOG_CAP = 10_000;

/** The undelivered deliveries of every company, by phase, and how late the oldest due one is. */
export interface DeliveryBacklog {
  /** Pending and due, waiting for a worker to claim them. */
  due: number;
  /** Claimed by a worker, their attempt running. */
  in_flight: number;
  /** Pending with their next attempt (a retry, or a paced send) still to come. */
  scheduled: number;
  /** Seconds since the oldest due, unclaimed delivery became due; 0 when none waits. */
  lag_seconds: number;
}

/**
 * One statement, each figure on a partial index of pending rows (webhook_deliveries_due, _claimed): delivered,
 * failed and parked rows are history and grow without bound, so they are not counted at all.
 */
export async function deliveryBacklog(db: Db): Promise<DeliveryBacklog> {
  const { rows } = await sql<DeliveryBacklog>`select
      (select count(*) from (select 1 from webhook_deliveries
        where state = 'pending' and next_attempt_at <= now() and claim_token is null limit ${BACKLOG_CAP}) d)::int as due,
      (select count(*) from (select 1 from webhook_deliveries
        where claim_token is not null limit ${BACKLOG_CAP}) f)::int as in_flight,
      (select count(*) from (select 1 from webhook_deliveries
        where state = 'pending' and next_attempt_at > now() limit ${BACKLOG_CAP}) s)::int as scheduled,
      coalesce((select extract(epoch from now() - min(next_attempt_at)) from webhook_deliveries
        where state = 'pending' and next_attempt_at <= now() and claim_token is null), 0)::float8 as lag_seconds`.execute(
    db,
  );
  return rows[0]!;
}

/** The same figures as gauges of GET /metrics (database-wide: every instance reports the same). */
export const deliveryReadings: Readings = {
  gauges: [
    {
      name: 'svc_webhook_deliveries_backlog',
      help: `Undelivered webhook deliveries by phase (due, in_flight, scheduled), counted up to ${BACKLOG_CAP}`,
      labelNames: ['phase'],
    },
    { name: 'svc_webhook_delivery_lag_seconds', help: 'Age of the oldest due, unclaimed webhook delivery' },
  ],
  read: async (db) => {
    const backlog = await deliveryBacklog(db);
    return {
      svc_webhook_deliveries_backlog: (['due', 'in_flight', 'scheduled'] as const).map((phase) => ({
        labels: { phase },
        value: backlog[phase],
      })),
      svc_webhook_delivery_lag_seconds: [{ value: backlog.lag_seconds }],
    };
  },
};
