import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { localToday } from '../../platform/dates.ts';
import { idVisible } from '../../platform/visibility.ts';
import { taskDelegatorsSql } from '../delegations/index.ts';

/**
 * Tasks a plain member sees: those assigned to them, those assigned to someone who delegated their tasks
 * to them by a delegation active today (company timezone; see modules/delegations), and those under a
 * client they see. A task with no client and no assignment to them (or their delegators) stays invisible.
 */
export function taskVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = ctx.actor.personId;
  const today = localToday(ctx.company.timezone);
  const ref = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<boolean>`(exists (
      select 1 from task_assignees ta
      where ta.company_id = ${ref('company_id')} and ta.task_id = ${ref('id')} and ta.person_id = ${person})
    or exists (
      select 1 from task_assignees dta
      where dta.company_id = ${ref('company_id')} and dta.task_id = ${ref('id')}
        and dta.person_id in (${taskDelegatorsSql(`${alias}.company_id`, person, today)}))
    or (${ref('client_id')} is not null and ${idVisible(ctx, 'clients', `${alias}.company_id`, `${alias}.client_id`)}))`;
}
