import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { tenant } from '../../platform/tenant-table.ts';

// What other modules read of time entries inside their own statements (a task's time for tasks, a person's
// worked time for the flextime balance), so that time_entries is named here.

const ofTask = (alias: string) =>
  sql`te.company_id = ${sql.ref(`${alias}.company_id`)} and te.task_id = ${sql.ref(`${alias}.id`)} and te.deleted_at is null`;

/**
 * Seconds tracked on the task aliased `alias`: a closed entry counts its duration (else end - start); a running
 * entry counts from its start up to now, never below zero (a start in the future counts nothing yet).
 */
export function trackedSecondsSql(alias: string): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(case when te."end" is null then greatest(0, floor(extract(epoch from now() - te.start)))
        else coalesce(te.duration, floor(extract(epoch from te."end" - te.start))) end), 0)::bigint
      from time_entries te where ${ofTask(alias)})`;
}

/** Whether any live time is logged on the task aliased `alias`. */
export function timeLoggedSql(alias: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from time_entries te where ${ofTask(alias)})`;
}

/**
 * Per person among `ids` (an int[] expression): seconds of their closed entries starting in [from, until)
 * (instants), each counting its duration (else end - start). The rows of a CTE (person_id, seconds).
 */
export function closedSecondsByPersonSql(
  ctx: Ctx,
  ids: RawBuilder<unknown>,
  from: RawBuilder<unknown>,
  until: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`select e.person_id, sum(coalesce(e.duration, floor(extract(epoch from e."end" - e.start)))) as seconds
      from time_entries e
      where ${tenant(ctx, 'e')} and e.deleted_at is null and e."end" is not null and e.person_id = any(${ids})
        and e.start >= ${from} and e.start < ${until}
      group by e.person_id`;
}
