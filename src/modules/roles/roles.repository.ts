import type { RoleListParams } from './roles.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { ROLE_LIST_OPTIONS, type RoleRecord } from './roles.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';

export const roles = tenantTable('roles', { alias: 'r', softDelete: true });
type Query = BaseQuery<'roles', 'r'>;

function project(query: Query) {
  return query.select(['r.id', 'r.name', 'r.created_at', 'r.updated_at']);
}

export function listRoles(ctx: Ctx, params: RoleListParams) {
  return listPage<RoleRecord, RoleListParams>(ctx, {
    listId: 'roles',
    params,
    options: ROLE_LIST_OPTIONS,
    idColumn: 'r.id',
    project,
    base: () => roles.base(ctx),
  });
}

export async function findRole(ctx: Ctx, id: number): Promise<RoleRecord | undefined> {
  return firstRecord<RoleRecord>(project(roles.base(ctx).where('r.id', '=', id)));
}
