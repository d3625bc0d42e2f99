import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { RoleCreateBody, RoleRecord, RoleUpdateBody } from './roles.schemas.ts';
import * as repo from './roles.repository.ts';

export const listRoles = (ctx: Ctx, params: object) => repo.listRoles(ctx, params);

export async function getRole(ctx: Ctx, id: number): Promise<RoleRecord> {
  const role = await repo.findRole(ctx, id);
  if (!role) throw notFound('Role');
  return role;
}

export async function createRole(ctx: Ctx, body: RoleCreateBody): Promise<RoleRecord> {
  return inTransaction(ctx, async (tx) => getRole(tx, await repo.insertRole(tx, { name: body.name })));
}

export async function updateRole(ctx: Ctx, id: number, body: RoleUpdateBody): Promise<RoleRecord> {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockRole(tx, id))) throw notFound('Role');
    if (Object.keys(body).length === 0) return getRole(tx, id);
    await repo.updateRole(tx, id, body);
    return getRole(tx, id);
  });
}

/**
 * A plain soft delete: a member's `title` is free text, not a reference to this record, so nothing
 * can be left pointing at a deleted job title.
 */
export async function deleteRole(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockRole(tx, id))) throw notFound('Role');
    await repo.softDeleteRole(tx, id);
  });
}
