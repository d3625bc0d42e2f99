import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { ACTIVITY_LIST_OPTIONS, type ActivityRecord } from './activities.schemas.ts';

const OPTIONS = { ...ACTIVITY_LIST_OPTIONS, cursor: false };
const COLUMNS = ['a.id', 'a.entity', 'a.record_id', 'a.action', 'a.fields', 'a.api_key_id', 'a.person_id', 'a.method', 'a.path', 'a.request_id', 'a.occurred_at'] as const;

/** A plain member's personal key sees the trail of its own person's writes only. */
function base(ctx: Ctx) {
  let q = ctx.db.selectFrom('activities as a').where('a.company_id', '=', ctx.companyId);
  if (ctx.actor.restricted) q = q.where('a.person_id', '=', ctx.actor.personId);
  return q;
}

function applyFilters(query: ReturnType<typeof base>, f: Record<string, unknown>) {
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

export async function listActivities(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'activities', params, OPTIONS);
  return paginate<ActivityRecord>(ctx, {
    listId: 'activities', base: applyFilters(base(ctx), filters), idColumn: 'a.id', project: ((q: ReturnType<typeof base>) => q.select(COLUMNS)) as never,
    options: OPTIONS, params, filters, sort, after,
  });
}

export async function findActivity(ctx: Ctx, id: number) {
  return base(ctx).where('a.id', '=', id).select(COLUMNS).executeTakeFirst() as Promise<ActivityRecord | undefined>;
}
