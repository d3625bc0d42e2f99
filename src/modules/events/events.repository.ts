import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { splitList } from '../../platform/fields.ts';
import { EVENT_RETENTION_DAYS, eventData, type EventShapes } from '../../platform/events.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { FEED_OPTIONS, type FeedEventRecord, type FeedListParams } from './events.schemas.ts';

export const events = tenantTable('events', { alias: 'e' });

/**
 * The company's events of the last 30 days whose transaction is older than every transaction
 * still running: a later commit can then only add events after the cursor, never behind it.
 */
function feed(ctx: Ctx) {
  return events
    .base(ctx)
    .where('e.occurred_at', '>', sql<string>`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`)
    .where(sql<boolean>`e.xact_id < pg_snapshot_xmin(pg_current_snapshot())`);
}

function applyFilters(query: BaseQuery<'events', 'e'>, f: ListFilters<FeedListParams>) {
  let q = query;
  const names = splitList(f.event);
  if (names) q = q.where('e.event', 'in', names);
  if (f.record_id !== undefined) q = q.where('e.record_id', '=', f.record_id);
  if (f.occurred_from !== undefined) q = q.where('e.occurred_at', '>=', f.occurred_from);
  if (f.occurred_to !== undefined) q = q.where('e.occurred_at', '<', f.occurred_to);
  return q;
}

type Row = FeedEventRecord & { seq: number; position: string; uuid: string };

// The list keys pages on `id`; the internal sequence stands in for it, the UUID is shown as id.
const project = (q: BaseQuery<'events', 'e'>) =>
  q.select([
    'e.id',
    sql<string>`e.uuid::text`.as('uuid'),
    'e.event',
    'e.entity',
    'e.action',
    'e.record_id',
    'e.occurred_at',
    'e.data',
    sql<string>`e.xact_id::text`.as('position'),
  ]);

/** `shapes`: the modules' event shapes, so the feed carries exactly what a delivery of the event carries. */
export async function listEvents(ctx: Ctx, params: FeedListParams, shapes: EventShapes) {
  const page = await listPage<Row, FeedListParams>(ctx, {
    listId: 'events',
    params,
    options: FEED_OPTIONS,
    idColumn: 'e.id',
    project,
    base: (filters) => applyFilters(feed(ctx), filters),
  });
  const data = page.data.map((row) => ({
    id: row.uuid,
    event: row.event,
    entity: row.entity,
    action: row.action,
    record_id: row.record_id,
    occurred_at: row.occurred_at,
    data: eventData(row.event, row.data as Record<string, unknown>, shapes),
  }));
  return { data, meta: page.meta };
}
