import type { ActivityListParams } from './activities.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { hasTier } from '../../platform/scopes.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { ACTIVITY_LIST_OPTIONS, type ActivityRecord } from './activities.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';

const OPTIONS = { ...ACTIVITY_LIST_OPTIONS, cursor: false };
const COLUMNS = [
  'a.id',
  'a.entity',
  'a.record_id',
  'a.action',
  'a.fields',
  'a.api_key_id',
  'a.person_id',
  'a.source',
  'a.method',
  'a.path',
  'a.request_id',
  'a.occurred_at',
] as const;

/** A plain member's personal key sees the trail of its own person's writes only (the `visibility` its module declares). */
export const activities = tenantTable('activities', { alias: 'a' });
type Query = BaseQuery<'activities', 'a'>;

/** Financial writes (platform/activities.ts) are hidden, as if absent, from keys without the financials tier. */
function readable(ctx: Ctx): Query {
  const query = activities.base(ctx);
  return hasTier(ctx.key.scopes, 'financials') ? query : query.where('a.financial', '=', false);
}

const project = (query: Query) => query.select(COLUMNS);

function applyFilters(query: Query, f: Record<string, unknown>) {
  let q = query;
  if (f.entity !== undefined) q = q.where('a.entity', '=', f.entity as string);
  if (f.record_id !== undefined) q = q.where('a.record_id', '=', f.record_id as number);
  if (f.person_id !== undefined) q = q.where('a.person_id', '=', f.person_id as number);
  if (f.api_key_id !== undefined) q = q.where('a.api_key_id', '=', f.api_key_id as number);
  if (f.action !== undefined) q = q.where('a.action', '=', f.action as string);
  if (f.occurred_from !== undefined) q = q.where('a.occurred_at', '>=', f.occurred_from as string);
  if (f.occurred_to !== undefined) q = q.where('a.occurred_at', '<', f.occurred_to as string);
  return q;
}

export function listActivities(ctx: Ctx, params: ActivityListParams) {
  return listPage<ActivityRecord, ActivityListParams>(ctx, {
    listId: 'activities',
    params,
    options: OPTIONS,
    idColumn: 'a.id',
    project,
    base: (filters) => applyFilters(readable(ctx), filters),
  });
}

export async function findActivity(ctx: Ctx, id: number) {
  return firstRecord<ActivityRecord>(project(readable(ctx).where('a.id', '=', id)));
}

/** A write no key or person made (a task automation's), for the audit trail: named by its method and path. */
export interface UnattendedActivity {
  entity: string;
  record_id: number;
  action: string;
  fields: string[];
  method: string;
  path: string;
  request_id: string;
}

/** Records an unattended write's audit row in the caller's transaction (no key and no person). */
export async function recordUnattended(ctx: Ctx, activity: UnattendedActivity): Promise<void> {
  await scoped.insert(ctx, 'activities', [{ ...activity, api_key_id: null, person_id: null }]).execute();
}
