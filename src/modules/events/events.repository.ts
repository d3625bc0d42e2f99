import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { splitList } from '../../platform/fields.ts';
import { eventData } from '../../webhooks/payload.ts';
import { EVENT_RETENTION_DAYS } from '../../webhooks/retention.ts';
import { FEED_OPTIONS, type FeedEventRecord } from './events.schemas.ts';

/**
 * The company's events of the last 30 days whose transaction is older than every transaction
 * still running: a later commit can then only add events after the cursor, never behind it.
 */
function base(ctx: Ctx) {
  return ctx.db.selectFrom('events as e')
    .where('e.company_id', '=', ctx.companyId)
    .where('e.occurred_at', '>', sql<string>`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`)
    .where(sql<boolean>`e.xact_id < pg_snapshot_xmin(pg_current_snapshot())`);
}

function applyFilters(query: ReturnType<typeof base>, f: Record<string, unknown>) {
  let q = query;
  const events = splitList(f.event as string | undefined);
  if (events) q = q.where('e.event', 'in', events);
  if (f.record_id !== undefined) q = q.where('e.record_id', '=', f.record_id as number);
  if (f.occurred_from !== undefined) q = q.where('e.occurred_at', '>=', f.occurred_from as string);
  if (f.occurred_to !== undefined) q = q.where('e.occurred_at', '<', f.occurred_to as string);
  return q;
}

type Row = FeedEventRecord & { seq: number; position: string };

export async function listEvents(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'events', params, FEED_OPTIONS);
  // paginate keys pages on `id`; the internal sequence stands in for it, the UUID is shown as id.
  const project = (q: ReturnType<typeof base>) => q.select([
    'e.id', sql<string>`e.uuid::text`.as('uuid'), 'e.event', 'e.entity', 'e.action', 'e.record_id', 'e.occurred_at', 'e.data',
    sql<string>`e.xact_id::text`.as('position'),
  ]);
  const page = await paginate<Row & { uuid: string }>(ctx, {
    listId: 'events', base: applyFilters(base(ctx), filters), idColumn: 'e.id', project: project as never, options: FEED_OPTIONS, params, filters, sort, after,
  });
  const data = page.data.map((row) => ({
    id: row.uuid, event: row.event, entity: row.entity, action: row.action, record_id: row.record_id, occurred_at: row.occurred_at,
    data: eventData(row.event, row.data as Record<string, unknown>),
  }));
  return { data, meta: page.meta };
}
