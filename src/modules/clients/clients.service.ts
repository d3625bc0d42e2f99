import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { customFieldsInput, toFlag } from '../../platform/fields.ts';
import { assertReference, assertReferenceList } from '../../platform/references.ts';
import type { ClientCreateBody, ClientRecord, ClientUpdateBody } from './clients.schemas.ts';
import * as repo from './clients.repository.ts';
import type { ClientColumns } from './clients.repository.ts';

type ClientInput = ClientCreateBody | ClientUpdateBody;

/** The webhook shape of a client: the record without nested contacts. */
export function leanClient(client: ClientRecord) {
  const { contacts: _contacts, contacts_truncated: _truncated, ...lean } = client;
  return lean;
}

function columnsFrom(body: ClientInput): Partial<ClientColumns> {
  const { groups: _groups, fields: _fields, custom_fields: _cf, timing_required, topic_required, address_country_code, ...plain } = body;
  const columns: Partial<ClientColumns> = { ...plain };
  if (timing_required !== undefined) columns.timing_required = toFlag(timing_required) as 0 | 1;
  if (topic_required !== undefined) columns.topic_required = toFlag(topic_required) as 0 | 1;
  if (address_country_code !== undefined) columns.address_country_code = address_country_code?.toLowerCase() ?? null;
  const custom = customFieldsInput(body);
  if (custom.both) throw new AppError(400, 'VALIDATION_ERROR', 'Send custom_fields or its alias fields, not both', { reason: 'DUPLICATE_ALIAS', field: 'custom_fields' });
  if (custom.present) columns.custom_fields = custom.value;
  return columns;
}

async function checkReferences(ctx: Ctx, body: ClientInput, selfId?: number): Promise<void> {
  await assertReference(ctx, 'people', 'person', 'default_person_id', body.default_person_id);
  await assertReference(ctx, 'clients', 'client', 'parent_id', body.parent_id);
  await assertReferenceList(ctx, 'client_groups', 'INVALID_GROUP', 'groups', body.groups);
  if (selfId !== undefined && body.parent_id != null) {
    const chain = await repo.ancestorIds(ctx, body.parent_id);
    if (chain.includes(selfId)) throw new AppError(400, 'INVALID_CLIENT', 'parent_id would make the client its own ancestor', { field: 'parent_id', value: body.parent_id });
  }
}

export const listClients = (ctx: Ctx, params: object) => repo.listClients(ctx, params);

export async function getClient(ctx: Ctx, id: number): Promise<ClientRecord> {
  const client = await repo.findClient(ctx, id);
  if (!client) throw notFound('Client');
  return client;
}

export async function createClient(ctx: Ctx, body: ClientCreateBody): Promise<ClientRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkReferences(tx, body);
    const columns = { ...columnsFrom(body), name: body.name };
    // A plain member's personal key keeps sight of what it creates: it becomes the responsible person.
    if (tx.actor.restricted && columns.default_person_id == null) columns.default_person_id = tx.actor.personId;
    const id = await repo.insertClient(tx, columns);
    if (body.groups) await repo.replaceGroups(tx, id, body.groups);
    const client = await getClient(tx, id);
    await recordEvent(tx, 'client', 'created', leanClient(client));
    return client;
  });
}

export async function updateClient(ctx: Ctx, id: number, body: ClientUpdateBody): Promise<ClientRecord> {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockClient(tx, id))) throw notFound('Client');
    if (Object.keys(body).length === 0) return getClient(tx, id);
    if (body.parent_id === id) throw new AppError(400, 'INVALID_CLIENT', 'A client cannot be its own parent', { field: 'parent_id', value: id });
    await checkReferences(tx, body, id);
    await repo.updateClient(tx, id, columnsFrom(body));
    if (body.groups) await repo.replaceGroups(tx, id, body.groups);
    const client = await getClient(tx, id);
    await recordEvent(tx, 'client', 'updated', leanClient(client));
    return client;
  });
}

export async function deleteClient(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockClient(tx, id))) throw notFound('Client');
    await repo.softDeleteClient(tx, id);
    await recordEvent(tx, 'client', 'deleted', { id });
  });
}

/** No drive integration exists yet, so every provisioning request is refused after the client check. */
export async function provisionDocumentsFolder(ctx: Ctx, id: number): Promise<never> {
  await getClient(ctx, id);
  throw new AppError(409, 'DRIVE_NOT_CONNECTED', 'No document drive is connected for this company; connect one in the web application first');
}
