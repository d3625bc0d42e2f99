import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { conflict, invalidReference, notFound } from '../../platform/errors.ts';
import { assertReference } from '../../platform/references.ts';
import { lockClient } from '../clients/clients.repository.ts';
import type { ClientMemberCreateBody, ClientMemberRecord, ClientMemberUpdateBody } from './client-members.schemas.ts';
import * as repo from './client-members.repository.ts';

type MemberInput = ClientMemberCreateBody | ClientMemberUpdateBody;

const exists = (clientId: number, personId: number, id?: number) =>
  conflict('CLIENT_MEMBER_EXISTS', `Person ${personId} is already a member of client ${clientId}`,
    { client_id: clientId, person_id: personId, ...(id === undefined ? {} : { client_member_id: id }) });

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** The row as written, even when the write took it out of a plain member's sight (e.g. they moved their own membership). */
async function readBack(ctx: Ctx, id: number): Promise<ClientMemberRecord> {
  return (await repo.findClientMember({ ...ctx, actor: { ...ctx.actor, restricted: false } }, id))!;
}

async function checkReferences(ctx: Ctx, body: MemberInput): Promise<void> {
  // Locking the client serialises membership writes on it, so the duplicate check below holds.
  if (body.client_id !== undefined && !(await lockClient(ctx, body.client_id))) throw invalidReference('client', 'client_id', body.client_id);
  await assertReference(ctx, 'people', 'person', 'person_id', body.person_id);
  if (body.workflow_role_id != null && !(await repo.workflowRoleExists(ctx, body.workflow_role_id))) {
    throw invalidReference('workflow_role', 'workflow_role_id', body.workflow_role_id);
  }
}

async function refuseDuplicate(ctx: Ctx, clientId: number, personId: number, selfId?: number): Promise<void> {
  const existing = await repo.findMembership(ctx, clientId, personId);
  if (existing && existing.id !== selfId) throw exists(clientId, personId, existing.id);
}

export const listClientMembers = (ctx: Ctx, params: object) => repo.listClientMembers(ctx, params);

export async function getClientMember(ctx: Ctx, id: number): Promise<ClientMemberRecord> {
  const member = await repo.findClientMember(ctx, id);
  if (!member) throw notFound('Client member');
  return member;
}

export async function createClientMember(ctx: Ctx, body: ClientMemberCreateBody): Promise<ClientMemberRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkReferences(tx, body);
    await refuseDuplicate(tx, body.client_id, body.person_id);
    const id = await repo.insertClientMember(tx, body).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists(body.client_id, body.person_id) : error;
    });
    return readBack(tx, id);
  });
}

export async function updateClientMember(ctx: Ctx, id: number, body: ClientMemberUpdateBody): Promise<ClientMemberRecord> {
  return inTransaction(ctx, async (tx) => {
    const current = await repo.lockClientMember(tx, id);
    if (!current) throw notFound('Client member');
    if (Object.keys(body).length === 0) return readBack(tx, id);
    await checkReferences(tx, body);
    if (body.client_id === undefined) await lockClient(tx, current.client_id);
    const clientId = body.client_id ?? current.client_id;
    const personId = body.person_id ?? current.person_id;
    await refuseDuplicate(tx, clientId, personId, id);
    await repo.updateClientMember(tx, id, body).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists(clientId, personId) : error;
    });
    return readBack(tx, id);
  });
}

export async function deleteClientMember(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockClientMember(tx, id))) throw notFound('Client member');
    await repo.softDeleteClientMember(tx, id);
  });
}
