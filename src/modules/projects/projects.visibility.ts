import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { idVisible } from '../../platform/visibility.ts';

/**
 * Projects a plain member sees: those under a client they see, and those they manage.
 * A project with no client that someone else manages stays invisible to them.
 */
export function projectVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${alias}.manager_id`)} = ${ctx.actor.personId}
    or (${sql.ref(`${alias}.client_id`)} is not null and ${idVisible(ctx, 'clients', `${alias}.company_id`, `${alias}.client_id`)}))`;
}
