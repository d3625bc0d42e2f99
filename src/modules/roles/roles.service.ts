import type { RoleListParams } from './roles.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import type { RoleCreateBody, RoleRecord, RoleUpdateBody } from './roles.schemas.ts';
import * as repo from './roles.repository.ts';

const target = { what: 'Role', lock: repo.roles.lock, read: repo.findRole };

export const listRoles = (ctx: Ctx, params: RoleListParams) => repo.listRoles(ctx, params);

export async function getRole(ctx: Ctx, id: number): Promise<RoleRecord> {
  return orNotFound(await repo.findRole(ctx, id), 'Role');
}

export async function createRole(ctx: Ctx, body: RoleCreateBody): Promise<RoleRecord> {
  return inTransaction(ctx, async (tx) => getRole(tx, await repo.roles.insert(tx, { name: body.name })));
}

export const updateRole = (ctx: Ctx, id: number, body: RoleUpdateBody) =>
  mutate(ctx, target, id, body, (tx) => repo.roles.update(tx, id, body));

/**
 * A plain soft delete: a member's `title` is free text, not a reference to this record, so nothing
 * can be left pointing at a deleted job title.
 */
export const deleteRole = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.roles.softDelete(tx, id));
