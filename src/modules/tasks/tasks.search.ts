import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';

/**
 * The tasks source of GET /search (the search module unions it with the others in one statement): live, visible
 * tasks (not template rows) whose title contains the text; rank 0 when it starts with it, else 1.
 */
export function taskSearchHits(ctx: Ctx, p: { contains: string; prefix: string }) {
  return scoped
    .select(ctx, 'tasks', 't')
    .select([
      sql<'task'>`'task'`.as('type'),
      't.id',
      't.title as title',
      sql<string | null>`t.status`.as('subtitle'),
      't.client_id',
      sql<number>`case when t.title ilike ${p.prefix} then 0 else 1 end`.as('rank'),
    ])
    .where('t.deleted_at', 'is', null)
    .where('t.template_kind', 'is', null)
    .where('t.title', 'ilike', p.contains)
    .where(rowVisible(ctx, 'tasks', 't'));
}
