import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { liveClientSql } from '../clients/index.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

// The client workflow's writes of memberships (bulk assignment, role holders): client members own the rows.

/** The client's live memberships, by person. */
export const liveMembers = (ctx: Ctx, clientId: number) =>
  scoped
    .select(ctx, 'client_members', 'cm')
    .select(['cm.id as client_member_id', 'cm.person_id', 'cm.workflow_role_id'])
    .where('cm.client_id', '=', clientId)
    .where('cm.deleted_at', 'is', null)
    .orderBy('cm.person_id')
    .execute();

const liveMembership = (ctx: Ctx, clientIds: readonly number[], personId: number) =>
  scoped
    .update(ctx, 'client_members')
    .where('client_id', 'in', [...clientIds])
    .where('person_id', '=', personId)
    .where('deleted_at', 'is', null);

/** Gives the person its role on each client, making it a member where it is not one. */
export async function ensureMembers(
  ctx: Ctx,
  clientIds: readonly number[],
  personId: number,
  roleOf: (clientId: number) => number | null | undefined,
): Promise<void> {
  if (clientIds.length === 0) return;
  const existing = await scoped
    .select(ctx, 'client_members', 'cm')
    .select(['cm.client_id', 'cm.workflow_role_id'])
    .where('cm.client_id', 'in', [...clientIds])
    .where('cm.person_id', '=', personId)
    .where('cm.deleted_at', 'is', null)
    .execute();
  const current = new Map(existing.map((r) => [r.client_id, r.workflow_role_id]));
  const fresh = clientIds.filter((id) => !current.has(id));
  if (fresh.length)
    await scoped
      .insert(
        ctx,
        'client_members',
        fresh.map((client_id) => ({ client_id, person_id: personId, workflow_role_id: roleOf(client_id) ?? null })),
      )
      .execute();
  for (const [clientId, role] of current) {
    const wanted = roleOf(clientId);
    if (wanted === undefined || wanted === role) continue;
    await liveMembership(ctx, [clientId], personId)
      .set({ workflow_role_id: wanted, updated_at: nextStamp() })
      .execute();
  }
}

/** Ends the person's memberships on these clients (soft delete); answers each ended one's workflow role. */
export async function endMemberships(
  ctx: Ctx,
  clientIds: readonly number[],
  personId: number,
): Promise<Array<{ client_id: number; workflow_role_id: number | null }>> {
  if (clientIds.length === 0) return [];
  const rows = await liveMembership(ctx, clientIds, personId)
    .set({ deleted_at: sql`now()`, updated_at: nextStamp() })
    .returning(['client_id', 'workflow_role_id'])
    .execute();
  return rows as Array<{ client_id: number; workflow_role_id: number | null }>;
}

/** Takes the workflow role from the client's members not named in `keep`. */
export async function clearRolesExcept(ctx: Ctx, clientId: number, keep: readonly number[]): Promise<void> {
  let query = scoped
    .update(ctx, 'client_members')
    .set({ workflow_role_id: null, updated_at: nextStamp() })
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .where('workflow_role_id', 'is not', null);
  if (keep.length) query = query.where('person_id', 'not in', [...keep]);
  await query.execute();
}

/** Live memberships of live clients holding the workflow role, company-wide (whatever the caller may see). */
export async function countRoleHolders(ctx: Ctx, roleId: number): Promise<number> {
  const members = await scoped
    .select(ctx, 'client_members', 'cm')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('cm.deleted_at', 'is', null)
    .where(liveClientSql('cm.company_id', 'cm.client_id'))
    .where('cm.workflow_role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return members.n;
}

/**
 * The persons holding one of the task's workflow roles on its client, for a task query aliased `t` (a list read:
 * one correlated subquery, not a second statement).
 */
export const roleHolderIds = () =>
  sql<number[]>`array(select distinct cm.person_id from client_members cm where cm.company_id = t.company_id
        and cm.client_id = t.client_id and cm.deleted_at is null and cm.workflow_role_id = any(t.workflow_role_ids)
        order by cm.person_id)`;
