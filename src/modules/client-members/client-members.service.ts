import type { ClientMemberListParams } from './client-members.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, invalidReference } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference, lockLive } from '../../platform/references.ts';
import type { ClientMemberCreateBody, ClientMemberRecord, ClientMemberUpdateBody } from './client-members.schemas.ts';
import * as repo from './client-members.repository.ts';

type MemberInput = ClientMemberCreateBody | ClientMemberUpdateBody;

const exists = (clientId: number, personId: number, id?: number) =>
  new AppError('CLIENT_MEMBER_EXISTS', `Person ${personId} is already a member of client ${clientId}`, {
    client_id: clientId,
    person_id: personId,
    ...(id === undefined ? {} : { client_member_id: id }),
  });

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** The row as written, even when the write took it out of a plain member's sight (e.g. they moved their own membership). */
const readBack = (ctx: Ctx, id: number) =>
  repo.findClientMember({ ...ctx, actor: { ...ctx.actor, restricted: false } }, id);

const target = { what: 'Client member', lock: repo.lockClientMember, read: readBack };

async function checkReferences(ctx: Ctx, body: MemberInput): Promise<void> {
  // Locking the client serialises membership writes on it, so the duplicate check below holds.
  if (body.client_id !== undefined && !(await lockLive(ctx, 'clients', body.client_id)))
    throw invalidReference('client', 'client_id', body.client_id);
  await assertReference(ctx, 'people', 'person', 'person_id', body.person_id);
  await assertReference(ctx, 'workflow_roles', 'workflow_role', 'workflow_role_id', body.workflow_role_id);
}

async function refuseDuplicate(ctx: Ctx, clientId: number, personId: number, selfId?: number): Promise<void> {
  const existing = await repo.findMembership(ctx, clientId, personId);
  if (existing && existing.id !== selfId) throw exists(clientId, personId, existing.id);
}

export const listClientMembers = (ctx: Ctx, params: ClientMemberListParams) => repo.listClientMembers(ctx, params);

export async function getClientMember(ctx: Ctx, id: number): Promise<ClientMemberRecord> {
  return orNotFound(await repo.findClientMember(ctx, id), 'Client member');
}

export async function createClientMember(ctx: Ctx, body: ClientMemberCreateBody): Promise<ClientMemberRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkReferences(tx, body);
    await refuseDuplicate(tx, body.client_id, body.person_id);
    const id = await repo.clientMembers.insert(tx, body).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists(body.client_id, body.person_id) : error;
    });
    return orNotFound(await readBack(tx, id), 'Client member');
  });
}

export const updateClientMember = (ctx: Ctx, id: number, body: ClientMemberUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, current) => {
    await checkReferences(tx, body);
    if (body.client_id === undefined) await lockLive(tx, 'clients', current.client_id);
    const clientId = body.client_id ?? current.client_id;
    const personId = body.person_id ?? current.person_id;
    await refuseDuplicate(tx, clientId, personId, id);
    await repo.clientMembers.update(tx, id, body).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists(clientId, personId) : error;
    });
  });

export const deleteClientMember = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.clientMembers.softDelete(tx, id));
