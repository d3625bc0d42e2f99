import { sql, type RawBuilder } from 'kysely';

// The delegation's effect on what a member sees, read inside the tasks' visibility rule (one condition per row).

/**
 * The persons who delegate their tasks to `delegateId` by a delegation active on `today` (a date in the
 * company's time zone), in the company `companyRef` names: a subquery of one column.
 */
export function taskDelegatorsSql(companyRef: string, delegateId: number | null, today: string): RawBuilder<number> {
  return sql<number>`select dg.delegator_id from delegations dg
      where dg.company_id = ${sql.ref(companyRef)} and dg.delegate_id = ${delegateId} and dg.deleted_at is null
        and dg.scope = 'tasks' and dg.date_from <= ${today}::date and dg.date_until >= ${today}::date`;
}
