import { sql, type RawBuilder } from 'kysely';

// What the tasks module reads of a task's time inside its own statements, so that time_entries is named here.

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
