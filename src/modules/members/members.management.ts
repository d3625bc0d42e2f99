import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { assertRole, assertWebSession } from '../../platform/web-only.ts';
import { endAccountSessions } from '../sessions/index.ts';
import type { MemberUpdateBody } from './members.schemas.ts';
import * as repo from './members.repository.ts';

const MANAGEMENT_FIELDS = ['role', 'status'] as const;
/** The statuses a person can be moved between; pending and limited are set by invitations and placeholders. */
const MOVABLE = new Set(['active', 'inactive']);

/** Before any record is read: role and status need an owner's or admin's web session (the credential decides). */
export function checkManagementAccess(ctx: Ctx, body: MemberUpdateBody): void {
  const fields = MANAGEMENT_FIELDS.filter((field) => body[field] !== undefined);
  if (fields.length === 0) return;
  assertWebSession(
    ctx,
    'MANAGEMENT_UI_ONLY',
    `${fields.join(' and ')} of a member can only be changed in the web application`,
    {
      fields,
    },
  );
  assertRole(ctx, ['owner', 'admin'], "change a member's role or status");
}

interface Current {
  id: number;
  role: string;
  status: string;
  account_id: number | null;
}

function assertStatusMove(current: Current, status: string | undefined): void {
  if (status === undefined || status === current.status) return;
  if (!MOVABLE.has(status) || !MOVABLE.has(current.status))
    throw new AppError(
      'INVALID_STATUS_TRANSITION',
      `A member's status moves between active and inactive only (this one is ${current.status})`,
      { from: current.status, to: status },
    );
}

/** The company keeps at least one active owner, checked with every active owner locked (two demotions cannot race). */
async function assertOwnerRemains(ctx: Ctx, current: Current, body: MemberUpdateBody): Promise<void> {
  const leavesOwners = (body.role !== undefined && body.role !== 'owner') || body.status === 'inactive';
  if (current.role !== 'owner' || current.status !== 'active' || !leavesOwners) return;
  const others = await repo.lockActiveOwners(ctx, current.id);
  if (others === 0)
    throw new AppError(
      'LAST_OWNER',
      'The last active owner cannot be demoted or deactivated; make another owner first',
    );
}

/**
 * The role and status columns of a PATCH, checked on the locked row: only owners make or unmake owners; a deactivated
 * member's account loses every session, in this transaction.
 */
export async function managementColumns(
  ctx: Ctx,
  current: Current,
  body: MemberUpdateBody,
): Promise<Pick<RowChanges<'members'>, 'role' | 'status'>> {
  if (body.role === undefined && body.status === undefined) return {};
  // A role sent for an owner is, past the first test, another role: unmaking an owner.
  if (body.role === 'owner' || (current.role === 'owner' && body.role !== undefined))
    assertRole(ctx, ['owner'], 'make or unmake an owner');
  if (current.role === 'owner' && body.status !== undefined) assertRole(ctx, ['owner'], "change an owner's status");
  assertStatusMove(current, body.status);
  await assertOwnerRemains(ctx, current, body);
  if (body.status === 'inactive' && current.status !== 'inactive' && current.account_id !== null)
    await endAccountSessions(ctx, current.account_id, 'deactivated');
  return {
    ...(body.role !== undefined && { role: body.role }),
    ...(body.status !== undefined && { status: body.status }),
  };
}
