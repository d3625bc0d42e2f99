import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { findClient, touchClient } from '../clients/clients.repository.ts';
import { leanClient } from '../clients/clients.service.ts';
import type { ClientGroupCreateBody, ClientGroupRecord, ClientGroupUpdateBody } from './client-groups.schemas.ts';
import * as repo from './client-groups.repository.ts';

export const listClientGroups = (ctx: Ctx, params: object) => repo.listClientGroups(ctx, params);

export async function getClientGroup(ctx: Ctx, id: number): Promise<ClientGroupRecord> {
  const group = await repo.findClientGroup(ctx, id);
  if (!group) throw notFound('Client group');
  return group;
}

export async function createClientGroup(ctx: Ctx, body: ClientGroupCreateBody): Promise<ClientGroupRecord> {
  return inTransaction(ctx, async (tx) => {
    const id = await repo.insertClientGroup(tx, { name: body.name, color: body.color ?? null, status: body.status ?? 'active' });
    return getClientGroup(tx, id);
  });
}

export async function updateClientGroup(ctx: Ctx, id: number, body: ClientGroupUpdateBody): Promise<ClientGroupRecord> {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockClientGroup(tx, id))) throw notFound('Client group');
    if (Object.keys(body).length === 0) return getClientGroup(tx, id);
    await repo.updateClientGroup(tx, id, body);
    return getClientGroup(tx, id);
  });
}

/**
 * Refused while an active, live client belongs to the group. Otherwise the group goes and so do its
 * links; the clients that lost it changed (their `groups`), so each gets a new version and an event.
 */
export async function deleteClientGroup(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockClientGroup(tx, id))) throw notFound('Client group');
    const active = await repo.countActiveMembers(tx, id);
    if (active > 0) {
      throw conflict('GROUP_IN_USE', `The client group still has ${active} active client(s); remove them from the group or make them inactive first`, { active_clients: active });
    }
    await repo.softDeleteClientGroup(tx, id);
    const clientIds = await repo.unlinkGroup(tx, id);
    // The event snapshot is the company-wide record, whatever the deleting key may see.
    const snapshotCtx: Ctx = { ...tx, actor: { ...tx.actor, restricted: false } };
    for (const clientId of clientIds) {
      await touchClient(tx, clientId);
      const client = await findClient(snapshotCtx, clientId);
      if (client) await recordEvent(tx, 'client', 'updated', leanClient(client));
    }
  });
}
