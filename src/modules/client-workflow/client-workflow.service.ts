import type { WorkflowTaskListParams } from './client-workflow.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { liveIds } from '../../platform/references.ts';
import { findClient, leanClient, lockClientManager, setClientManager, visibleClient } from '../clients/index.ts';
import { workingMembers } from '../members/index.ts';
import type { ManagerPutBody, MemberRolesPutBody, MemberRolesRecord } from './client-workflow.schemas.ts';
import { clearRolesExcept, ensureMembers, liveMembers } from '../client-members/index.ts';
import * as repo from './client-workflow.repository.ts';

/** The path's client, live and visible to the caller, or 404 (routes call it before validating the body). */
export async function assertClientVisible(ctx: Ctx, clientId: number): Promise<void> {
  orNotFound(await visibleClient(ctx, clientId), 'Client');
}

const lockClient = async (ctx: Ctx, clientId: number) => orNotFound(await lockClientManager(ctx, clientId), 'Client');

/** 400 INVALID_PERSON naming the field, unless every id is a member who can take work. */
async function assertWorkingMembers(ctx: Ctx, field: (index: number) => string, ids: readonly number[]) {
  const found = await workingMembers(ctx, ids);
  const index = ids.findIndex((id) => !found.has(id));
  if (index >= 0) throw invalidReference('person', field(index), ids[index]);
}

/**
 * The client's manager is its default_person_id (the responsible person the visibility rules read). A change
 * fires client.updated with the lean client, like PATCH /clients; re-sending the current manager changes nothing.
 */
export async function setManager(ctx: Ctx, clientId: number, body: ManagerPutBody) {
  return inTransaction(ctx, async (tx) => {
    const locked = await lockClient(tx, clientId);
    if (body.person_id !== null) await assertWorkingMembers(tx, () => 'person_id', [body.person_id]);
    if (locked.default_person_id !== body.person_id) {
      await setClientManager(tx, clientId, body.person_id);
      // Read as the company sees it: a plain member who hands the client on may lose sight of it.
      const client = orNotFound(
        await findClient({ ...tx, actor: { ...tx.actor, restricted: false } }, clientId),
        'Client',
      );
      await recordEvent(tx, 'client', 'updated', leanClient(client));
      return { client_id: clientId, person_id: client.default_person_id, updated_at: client.updated_at };
    }
    return { client_id: clientId, person_id: body.person_id, updated_at: locked.updated_at as string };
  });
}

export async function getMemberRoles(ctx: Ctx, clientId: number): Promise<MemberRolesRecord> {
  await assertClientVisible(ctx, clientId);
  return { client_id: clientId, members: await liveMembers(ctx, clientId) };
}

async function checkMemberRoles(ctx: Ctx, body: MemberRolesPutBody): Promise<void> {
  const persons = body.members.map((m) => m.person_id);
  const twice = persons.findIndex((id, i) => persons.indexOf(id) !== i);
  if (twice >= 0)
    throw domainValidation('DUPLICATE_PERSON', `person ${persons[twice]} is listed twice; a member holds one role`, {
      field: `members[${twice}].person_id`,
    });
  await assertWorkingMembers(ctx, (i) => `members[${i}].person_id`, persons);
  const roles = [...new Set(body.members.flatMap((m) => (m.workflow_role_id === null ? [] : [m.workflow_role_id])))];
  const found = await liveIds(ctx, 'workflow_roles', roles);
  const index = body.members.findIndex((m) => m.workflow_role_id !== null && !found.has(m.workflow_role_id));
  if (index >= 0)
    throw new AppError(
      'INVALID_WORKFLOW_ROLE',
      `workflow_role_id ${body.members[index]!.workflow_role_id} is not a workflow role of this company`,
      {
        field: `members[${index}].workflow_role_id`,
        value: body.members[index]!.workflow_role_id,
      },
    );
}

/**
 * Replaces the set of workflow roles on the client in one transaction: each listed person holds the given
 * role (becoming a member if needed); members left out keep their membership without a role.
 */
export async function putMemberRoles(ctx: Ctx, clientId: number, body: MemberRolesPutBody): Promise<MemberRolesRecord> {
  return inTransaction(ctx, async (tx) => {
    await lockClient(tx, clientId);
    await checkMemberRoles(tx, body);
    const persons = body.members.map((m) => m.person_id);
    await clearRolesExcept(tx, clientId, persons);
    for (const member of body.members)
      await ensureMembers(tx, [clientId], member.person_id, () => member.workflow_role_id);
    return { client_id: clientId, members: await liveMembers(tx, clientId) };
  });
}

export async function listWorkflowTasks(ctx: Ctx, clientId: number, params: WorkflowTaskListParams) {
  await assertClientVisible(ctx, clientId);
  return repo.listWorkflowTasks(ctx, clientId, params);
}
