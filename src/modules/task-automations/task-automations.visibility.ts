import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { idVisible } from '../../platform/visibility.ts';

/**
 * Task automations a plain member sees: those whose client and project conditions name records they see (or
 * none), so a rule does not show a client the member cannot see.
 */
export function taskAutomationVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const company = `${alias}.company_id`;
  return sql<boolean>`((${sql.ref(`${alias}.client_id`)} is null or ${idVisible(ctx, 'clients', company, `${alias}.client_id`)})
    and (${sql.ref(`${alias}.project_id`)} is null or ${idVisible(ctx, 'projects', company, `${alias}.project_id`)}))`;
}
