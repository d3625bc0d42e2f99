import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

/**
 * A live project of this company with its client (null when it has none), or undefined. Budgets check the project
 * they name with it; no visibility rule applies (the caller decides who may name a project).
 */
export async function liveProjectClient(ctx: Ctx, id: number): Promise<{ client_id: number | null } | undefined> {
  return scoped
    .select(ctx, 'projects', 'p')
    .where('p.id', '=', id)
    .where('p.deleted_at', 'is', null)
    .select('p.client_id')
    .executeTakeFirst();
}
