import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';

/** A plain member sees their own calendar entries and the company-wide ones (holidays, which have no person). */
export function calendarVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = sql.ref(`${alias}.person_id`);
  return sql<boolean>`(${person} = ${ctx.actor.personId} or ${person} is null)`;
}
