import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** Events (the change feed) and with them their delivery rows and log are kept this long. */
export const EVENT_RETENTION_DAYS = 30;

/** Deletes a batch of expired events; the delivery queue and log go with them (ON DELETE CASCADE). */
export async function purgeExpired(deps: { db: Db }): Promise<number> {
  const result = await sql`delete from events where (company_id, id) in (select company_id, id from events
    where occurred_at < now() - make_interval(days => ${EVENT_RETENTION_DAYS}) limit 5000)`.execute(deps.db);
  return Number(result.numAffectedRows ?? 0);
}
