import type { ClientGroupListParams } from './client-groups.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { findClient, leanClient, touchClient } from '../clients/index.ts';
import type { ClientGroupCreateBody, ClientGroupRecord, ClientGroupUpdateBody } from './client-groups.schemas.ts';
import * as repo from './client-groups.repository.ts';

const target = { what: 'Client group', lock: repo.clientGroups.lock, read: repo.findClientGroup };

export const listClientGroups = (ctx: Ctx, params: ClientGroupListParams) => repo.listClientGroups(ctx, params);

export async function getClientGroup(ctx: Ctx, id: number): Promise<ClientGroupRecord> {
  return orNotFound(await repo.findClientGroup(ctx, id), 'Client group');
}

export async function createClientGroup(ctx: Ctx, body: ClientGroupCreateBody): Promise<ClientGroupRecord> {
  return inTransaction(ctx, async (tx) => {
    const id = await repo.clientGroups.insert(tx, {
      name: body.name,
      color: body.color ?? null,
      status: body.status ?? 'active',
    });
    return getClientGroup(tx, id);
  });
}

export const updateClientGroup = (ctx: Ctx, id: number, body: ClientGroupUpdateBody) =>
  mutate(ctx, target, id, body, (tx) => repo.clientGroups.update(tx, id, body));

/**
 * Refused while an active, live client belongs to the group. Otherwise the group goes and so do its
 * links; the clients that lost it changed (their `groups`), so each gets a new version and an event.
 */
export const deleteClientGroup = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx) => {
    const active = await repo.countActiveMembers(tx, id);
    if (active > 0) {
      throw new AppError(
        'GROUP_IN_USE',
        `The client group still has ${active} active client(s); remove them from the group or make them inactive first`,
        { active_clients: active },
      );
    }
    await repo.clientGroups.softDelete(tx, id);
    const clientIds = await repo.unlinkGroup(tx, id);
    // The event snapshot is the company-wide record, whatever the deleting key may see.
    const snapshotCtx: Ctx = { ...tx, actor: { ...tx.actor, restricted: false } };
    for (const clientId of clientIds) {
      await touchClient(tx, clientId);
      const client = await findClient(snapshotCtx, clientId);
      if (client) await recordEvent(tx, 'client', 'updated', leanClient(client));
    }
  });
