import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

/**
 * A live task of the company that takes time entries (template rows do not), locked until commit: a reclaim's
 * target task. Any such task of the company: no visibility rule is applied here.
 */
export async function lockWorkTask(ctx: Ctx, id: number): Promise<boolean> {
  const row = await scoped
    .select(ctx, 'tasks', 't')
    .select('t.id')
    .where('t.id', '=', id)
    .where('t.deleted_at', 'is', null)
    .where('t.template_kind', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}
