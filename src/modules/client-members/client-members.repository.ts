import { sql } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { clientIdVisible } from '../../platform/visibility.ts';
import { CLIENT_MEMBER_LIST_OPTIONS, type ClientMemberRecord } from './client-members.schemas.ts';

export type ClientMemberColumns = Omit<ClientMemberRecord, 'id' | 'created_at' | 'updated_at'>;

const COLUMNS = ['cm.id', 'cm.client_id', 'cm.person_id', 'cm.role', 'cm.workflow_role_id', 'cm.created_at', 'cm.updated_at'] as const;

/** Memberships of live clients the acting person sees. */
function base(ctx: Ctx) {
  return ctx.db.selectFrom('client_members as cm').where('cm.company_id', '=', ctx.companyId).where('cm.deleted_at', 'is', null)
    .where(sql<boolean>`exists (select 1 from clients lc where lc.company_id = cm.company_id and lc.id = cm.client_id and lc.deleted_at is null)`)
    .where(clientIdVisible(ctx, 'cm.company_id', 'cm.client_id'));
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  if (filters.client_id !== undefined) q = q.where('cm.client_id', '=', filters.client_id as number);
  if (filters.person_id !== undefined) q = q.where('cm.person_id', '=', filters.person_id as number);
  if (filters.role !== undefined) q = q.where('cm.role', '=', filters.role as string);
  if (filters.workflow_role_id !== undefined) q = q.where('cm.workflow_role_id', '=', filters.workflow_role_id as number);
  return q;
}

export async function listClientMembers(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'client-members', params, CLIENT_MEMBER_LIST_OPTIONS);
  return paginate<ClientMemberRecord>(ctx, {
    listId: 'client-members', base: applyFilters(base(ctx), filters), idColumn: 'cm.id', project: ((q: ReturnType<typeof base>) => q.select(COLUMNS)) as never,
    options: CLIENT_MEMBER_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findClientMember(ctx: Ctx, id: number): Promise<ClientMemberRecord | undefined> {
  return base(ctx).where('cm.id', '=', id).select(COLUMNS).executeTakeFirst() as Promise<ClientMemberRecord | undefined>;
}

export async function lockClientMember(ctx: Ctx, id: number) {
  return base(ctx).where('cm.id', '=', id).select(['cm.id', 'cm.client_id', 'cm.person_id']).forUpdate().executeTakeFirst();
}

/** The live membership of this person on this client, whoever may see it. */
export async function findMembership(ctx: Ctx, clientId: number, personId: number) {
  return ctx.db.selectFrom('client_members').select('id').where('company_id', '=', ctx.companyId).where('client_id', '=', clientId)
    .where('person_id', '=', personId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Whether the id names a live workflow role of the company. */
export async function workflowRoleExists(ctx: Ctx, id: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('workflow_roles').select('id').where('company_id', '=', ctx.companyId).where('id', '=', id)
    .where('deleted_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}

export async function insertClientMember(ctx: Ctx, values: Partial<ClientMemberColumns> & { client_id: number; person_id: number }): Promise<number> {
  const row = await ctx.db.insertInto('client_members').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateClientMember(ctx: Ctx, id: number, values: Partial<ClientMemberColumns>): Promise<void> {
  await ctx.db.updateTable('client_members').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteClientMember(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'client_members', id);
}
