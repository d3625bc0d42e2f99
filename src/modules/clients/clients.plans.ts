import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';

// Template (plan) clients and the customers a workflow is applied to. A plan client is the client row a workflow
// template's master tasks hang off: part of the template, never a customer. The workflow engines write plan
// clients and select customers here; the task list leaves the plan clients' rows out.

/** The client `idRef` names (in the company `companyRef` names) is a template (plan) client: a condition. */
export const planClientSql = (companyRef: string, idRef: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from clients pc where pc.company_id = ${sql.ref(companyRef)} and pc.id = ${sql.ref(idRef)} and pc.type = 'plan')`;

/** Whether the client is a template (plan) client of the company. */
export async function isPlanClient(ctx: Ctx, clientId: number): Promise<boolean> {
  const row = await scoped
    .select(ctx, 'clients', 'c')
    .select('c.id')
    .where('c.id', '=', clientId)
    .where('c.type', '=', 'plan')
    .executeTakeFirst();
  return row !== undefined;
}

/** A new workflow template's plan client, named as the template. Answers its id. */
export async function insertPlanClient(ctx: Ctx, name: string): Promise<number> {
  const row = await scoped
    .insert(ctx, 'clients', [{ name, type: 'plan', status: 'active' }])
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function renamePlanClient(ctx: Ctx, clientId: number, name: string): Promise<void> {
  await scoped.update(ctx, 'clients').set({ name, updated_at: nextStamp() }).where('id', '=', clientId).execute();
}

export async function deletePlanClient(ctx: Ctx, clientId: number): Promise<void> {
  await scoped
    .update(ctx, 'clients')
    .set({ deleted_at: sql<string>`now()`, updated_at: nextStamp() })
    .where('id', '=', clientId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Live customers (not plan clients) the actor may see, aliased c. */
const customers = (ctx: Ctx) =>
  scoped
    .select(ctx, 'clients', 'c')
    .select('c.id')
    .where('c.deleted_at', 'is', null)
    .where('c.type', '<>', 'plan')
    .where(rowVisible(ctx, 'clients', 'c'))
    .orderBy('c.id');

/** Of these ids, the live customers the actor may see, in id order. */
export async function visibleCustomerIds(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (
    await customers(ctx)
      .where('c.id', 'in', [...ids])
      .execute()
  ).map((r) => r.id);
}

/**
 * The live customers the actor may see with any of the statuses and a name containing `q` (each when given),
 * and meeting `also` (a condition on the client aliased c, e.g. a group test), in id order.
 */
export async function matchingCustomerIds(
  ctx: Ctx,
  filter: { status?: readonly string[]; q?: string },
  also?: RawBuilder<boolean>,
): Promise<number[]> {
  let query = customers(ctx);
  if (filter.status) query = query.where('c.status', 'in', [...filter.status]);
  if (filter.q !== undefined) query = query.where('c.name', 'ilike', likeContains(filter.q));
  if (also) query = query.where(also);
  return (await query.execute()).map((r) => r.id);
}

/** The client `idRef` names is live and the actor may see it: a condition for another module's statement. */
export const seenClientSql = (ctx: Ctx, companyRef: string, idRef: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from clients c where c.company_id = ${sql.ref(companyRef)} and c.id = ${sql.ref(idRef)}
    and c.deleted_at is null and ${rowVisible(ctx, 'clients', 'c')})`;
