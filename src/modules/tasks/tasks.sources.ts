import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, type BaseQuery } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';

// Task queries other modules build on: a source of GET /search, the base of the client workflow's task list.

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

/**
 * The client's live work rows (tasks and requests, no template rows), company-wide: the base the client workflow's
 * task list narrows (made from a workflow, filters) and projects, one statement per page.
 */
export function clientWorkRows(ctx: Ctx, clientId: number): BaseQuery<'tasks', 't'> {
  return scoped
    .select(ctx, 'tasks', 't')
    .where('t.client_id', '=', clientId)
    .where('t.deleted_at', 'is', null)
    .where('t.template_kind', 'is', null)
    .where('t.type', 'in', ['task', 'request']);
}
