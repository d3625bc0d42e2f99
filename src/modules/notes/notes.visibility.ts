import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { idVisible } from '../../platform/visibility.ts';

/**
 * Notes a plain member sees: those whose related record they see (clients and projects by their rules);
 * notes on suppliers and members follow those resources, which have no per-person rule.
 */
export function noteVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const company = `${alias}.company_id`;
  const related = `${alias}.related_id`;
  return sql<boolean>`(case ${sql.ref(`${alias}.related_type`)}
    when 'client' then ${idVisible(ctx, 'clients', company, related)}
    when 'project' then ${idVisible(ctx, 'projects', company, related)}
    else true end)`;
}
