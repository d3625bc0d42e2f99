import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';

// What a module that references a project (tasks) asks of it, so that only this module reads the projects table.

/** A live project's id and client; with `visible`, only one the actor may see (the projects' own rule, as GET /projects reads it). */
export async function projectRef(ctx: Ctx, id: number, visible = true) {
  const query = scoped
    .select(ctx, 'projects', 'p')
    .select(['p.id', 'p.client_id'])
    .where('p.id', '=', id)
    .where('p.deleted_at', 'is', null);
  if (!visible) return query.executeTakeFirst();
  return query.where(rowVisible(ctx, 'projects', 'p')).executeTakeFirst();
}
