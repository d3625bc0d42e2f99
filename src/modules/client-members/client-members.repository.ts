import type { ClientMemberListParams } from './client-members.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { liveClientSql } from '../clients/index.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { CLIENT_MEMBER_LIST_OPTIONS, type ClientMemberRecord } from './client-members.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';

/** A membership is visible exactly when its client is. */
export const clientMembers = tenantTable('client_members', {
  alias: 'cm',
  softDelete: true,
});
type Query = BaseQuery<'client_members', 'cm'>;

const COLUMNS = [
  'cm.id',
  'cm.client_id',
  'cm.person_id',
  'cm.role',
  'cm.workflow_role_id',
  'cm.created_at',
  'cm.updated_at',
] as const;

/** Memberships of live clients (for every key: a deleted client's memberships are gone too) that the acting person sees. */
function live(ctx: Ctx): Query {
  return clientMembers.base(ctx).where(liveClientSql('cm.company_id', 'cm.client_id'));
}

const project = (query: Query) => query.select(COLUMNS);

function applyFilters(query: Query, filters: ListFilters<ClientMemberListParams>) {
  let q = query;
  if (filters.client_id !== undefined) q = q.where('cm.client_id', '=', filters.client_id);
  if (filters.person_id !== undefined) q = q.where('cm.person_id', '=', filters.person_id);
  if (filters.role !== undefined) q = q.where('cm.role', '=', filters.role);
  if (filters.workflow_role_id !== undefined) q = q.where('cm.workflow_role_id', '=', filters.workflow_role_id);
  return q;
}

export function listClientMembers(ctx: Ctx, params: ClientMemberListParams) {
  return listPage<ClientMemberRecord, ClientMemberListParams>(ctx, {
    listId: 'client-members',
    params,
    options: CLIENT_MEMBER_LIST_OPTIONS,
    idColumn: 'cm.id',
    project,
    base: (filters) => applyFilters(live(ctx), filters),
  });
}

export async function findClientMember(ctx: Ctx, id: number): Promise<ClientMemberRecord | undefined> {
  return firstRecord<ClientMemberRecord>(project(live(ctx).where('cm.id', '=', id)));
}

/** The gateway's lock() would not check the client is live; the service also reads the pair it holds. */
export async function lockClientMember(ctx: Ctx, id: number) {
  return live(ctx)
    .where('cm.id', '=', id)
    .select(['cm.id', 'cm.client_id', 'cm.person_id'])
    .forUpdate()
    .executeTakeFirst();
}

/** The live membership of this person on this client, whoever may see it. */
export async function findMembership(ctx: Ctx, clientId: number, personId: number) {
  return scoped
    .select(ctx, 'client_members', 'cm')
    .select('cm.id')
    .where('cm.client_id', '=', clientId)
    .where('cm.person_id', '=', personId)
    .where('cm.deleted_at', 'is', null)
    .executeTakeFirst();
}
