import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { idVisible } from '../../platform/visibility.ts';

/** Time entries a plain member sees: their own, and those on tasks they see. */
export function timeEntryVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId}
    or ${idVisible(ctx, 'tasks', `${alias}.company_id`, `${alias}.task_id`)})`;
}
