import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { ROLE_LIST_OPTIONS, type RoleRecord } from './roles.schemas.ts';

export type RoleColumns = Pick<RoleRecord, 'name'>;

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('roles as r')
    .where('r.company_id', '=', ctx.companyId)
    .where('r.deleted_at', 'is', null);
}

function project(query: ReturnType<typeof base>) {
  return query.select(['r.id', 'r.name', 'r.created_at', 'r.updated_at']);
}

export async function listRoles(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'roles', params, ROLE_LIST_OPTIONS);
  return paginate<RoleRecord>(ctx, {
    listId: 'roles', base: base(ctx), idColumn: 'r.id', project: project as never,
    options: ROLE_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findRole(ctx: Ctx, id: number): Promise<RoleRecord | undefined> {
  return project(base(ctx).where('r.id', '=', id)).executeTakeFirst() as Promise<RoleRecord | undefined>;
}

/** Locks the row for the rest of the transaction; undefined when absent, deleted or another tenant's. */
export async function lockRole(ctx: Ctx, id: number) {
  return base(ctx).where('r.id', '=', id).select(['r.id', 'r.updated_at']).forUpdate().executeTakeFirst();
}

export async function insertRole(ctx: Ctx, values: RoleColumns): Promise<number> {
  const row = await ctx.db.insertInto('roles').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(ctx: Ctx, id: number, values: Partial<RoleColumns>): Promise<void> {
  await ctx.db.updateTable('roles').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteRole(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'roles', id);
}
