import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';

/** A plain member sees the clients whose default person they are, or that they belong to through client members. */
export function clientVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = ctx.actor.personId;
  return sql<boolean>`(${sql.ref(`${alias}.default_person_id`)} = ${person} or exists (
    select 1 from client_members cm
    where cm.company_id = ${sql.ref(`${alias}.company_id`)} and cm.client_id = ${sql.ref(`${alias}.id`)}
      and cm.person_id = ${person} and cm.deleted_at is null))`;
}
