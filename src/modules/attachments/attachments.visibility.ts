import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { idVisible } from '../../platform/visibility.ts';

/** Files a plain member sees: those of a live task or note they see (each parent by its own rule). */
export function attachmentVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const company = `${alias}.company_id`;
  const related = `${alias}.related_id`;
  return sql<boolean>`(case ${sql.ref(`${alias}.related_type`)}
    when 'task' then ${idVisible(ctx, 'tasks', company, related)}
    when 'note' then ${idVisible(ctx, 'notes', company, related)}
    else false end)`;
}
