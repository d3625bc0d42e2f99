import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';

/**
 * The projects source of GET /search (the search module unions it with the others in one statement): live, visible
 * projects whose name contains the text; rank 0 when it starts with it, else 1.
 */
export function projectSearchHits(ctx: Ctx, p: { contains: string; prefix: string }) {
  return scoped
    .select(ctx, 'projects', 'p')
    .select([
      sql<'project'>`'project'`.as('type'),
      'p.id',
      'p.name as title',
      sql<string | null>`p.status`.as('subtitle'),
      'p.client_id',
      sql<number>`case when p.name ilike ${p.prefix} then 0 else 1 end`.as('rank'),
    ])
    .where('p.deleted_at', 'is', null)
    .where('p.name', 'ilike', p.contains)
    .where(rowVisible(ctx, 'projects', 'p'));
}
