import type { InvitationListParams } from './invitations.schemas.ts';
import type { Config } from '../../config.ts';
import { afterCommit, inTransaction, type Ctx } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { newSecretToken } from '../../platform/session-credential.ts';
import { nowStamp } from '../../platform/sql.ts';
import { assertRole, assertWebSession } from '../../platform/web-only.ts';
import { addPendingMember, cancelPendingMember, lockMemberBy, renameInvited } from '../members/index.ts';
import type { InvitationCreateBody, InvitationRecord } from './invitations.schemas.ts';
import { sendInvitationMail } from './invitations.mail.ts';
import * as repo from './invitations.repository.ts';

const webOnly = (ctx: Ctx) => {
  assertWebSession(ctx, 'MANAGEMENT_UI_ONLY', 'Invitations are managed in the web application only');
  assertRole(ctx, ['owner', 'admin'], 'manage invitations');
};

/** Mails handed on after a commit; the app (and the tests) wait for them. */
const pending = new Set<Promise<unknown>>();
export const settleInvitationMails = () => Promise.allSettled([...pending]);

/** The link goes out once the invitation is committed: a rolled-back write sends nothing. */
function mailAfterCommit(ctx: Ctx, config: Config, email: string, token: string): void {
  afterCommit(ctx, (db) => {
    const work = sendInvitationMail({ ...ctx, db }, config, email, token).catch(() => undefined);
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
}

export async function listInvitations(ctx: Ctx, params: InvitationListParams) {
  webOnly(ctx);
  return repo.listInvitations(ctx, params);
}

/** The member the invitation is for: a placeholder named by person_id (owners only), else found or made by e-mail. */
async function memberFor(ctx: Ctx, body: InvitationCreateBody) {
  const email = body.email.trim();
  const found = await lockMemberBy(ctx, body.person_id ? { personId: body.person_id } : { email });
  if (body.person_id && !found) throw invalidReference('person', 'person_id', body.person_id);
  if (!found) {
    return addPendingMember(ctx, { name: body.name, surname: body.surname ?? null, email });
  }
  if (found.status === 'active' || found.status === 'inactive')
    throw domainValidation('ALREADY_MEMBER', 'This person is a member of the company already', {
      field: body.person_id ? 'person_id' : 'email',
    });
  if (found.status === 'limited') assertRole(ctx, ['owner'], 'invite a placeholder member');
  await renameInvited(ctx, found, { name: body.name, surname: body.surname, email });
  return found.id;
}

/** POST /invitations: one open invitation per member; inviting again replaces its link (the old one dies). */
export async function createInvitation(
  ctx: Ctx,
  config: Config,
  body: InvitationCreateBody,
): Promise<InvitationRecord> {
  webOnly(ctx);
  return inTransaction(ctx, async (tx) => {
    const memberId = await memberFor(tx, body);
    const { token, hash } = newSecretToken();
    const values = { email: body.email.trim(), role: body.role, token_hash: hash, expires_at: repo.expiresFromNow() };
    const open = await repo.openInvitationOf(tx, memberId);
    let id: number;
    if (open) {
      id = open.id;
      await repo.invitations.update(tx, id, { ...values, invited_by_person_id: tx.actor.personId });
    } else {
      id = await repo.invitations.insert(tx, {
        ...values,
        member_id: memberId,
        invited_by_person_id: tx.actor.personId,
      });
    }
    mailAfterCommit(tx, config, values.email, token);
    return orNotFound(await repo.findInvitation(tx, id), 'Invitation');
  });
}

/** The invitation under a lock (404 for none, another company's included), then the web-only rule. */
async function lockOpen(ctx: Ctx, id: number) {
  const row = orNotFound(await repo.lockInvitation(ctx, id), 'Invitation');
  webOnly(ctx);
  if (row.status !== 'pending' && row.status !== 'expired')
    throw new AppError('INVALID_STATUS_TRANSITION', `The invitation is ${row.status}`, { status: row.status });
  return row;
}

/** POST /invitations/{id}/resend: a new link valid 7 days from now; the old link stops working. */
export async function resendInvitation(ctx: Ctx, config: Config, id: number): Promise<InvitationRecord> {
  return inTransaction(ctx, async (tx) => {
    const row = await lockOpen(tx, id);
    const { token, hash } = newSecretToken();
    await repo.invitations.update(tx, id, { token_hash: hash, expires_at: repo.expiresFromNow() });
    mailAfterCommit(tx, config, row.email, token);
    return orNotFound(await repo.findInvitation(tx, id), 'Invitation');
  });
}

/** DELETE /invitations/{id}: the link dies; a member made by the invitation (pending) becomes inactive. */
export async function cancelInvitation(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const row = await lockOpen(tx, id);
    await repo.invitations.update(tx, id, { state: 'cancelled', cancelled_at: nowStamp() });
    await cancelPendingMember(tx, row.member_id);
  });
}
