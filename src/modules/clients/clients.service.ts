import type { Ctx } from '../../platform/context.ts';
import { assertCustomFieldValues } from '../custom-fields/index.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, invalidReference } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { checkedEndpoint } from '../../platform/eas.ts';
import { customFieldsInput, toFlag } from '../../platform/fields.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference, assertReferenceList } from '../../platform/references.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type { ClientCreateBody, ClientListParams, ClientRecord, ClientUpdateBody } from './clients.schemas.ts';
import * as repo from './clients.repository.ts';

type ClientInput = ClientCreateBody | ClientUpdateBody;

const target = { what: 'Client', lock: repo.lockClient };

/** The webhook shape of a client: the record without nested contacts. */
export function leanClient(client: ClientRecord) {
  const { contacts: _contacts, contacts_truncated: _truncated, ...lean } = client;
  return lean;
}

const ENDPOINT_FIELDS = { id: 'endpoint_id', scheme: 'endpoint_scheme' };

/** The body as columns: flags as 0/1, the country in lower case, the electronic address checked (EAS list). */
function columnsFrom(body: ClientInput): RowChanges<'clients'> {
  const {
    groups: _groups,
    fields: _fields,
    custom_fields: _cf,
    timing_required,
    topic_required,
    address_country_code,
    endpoint_id,
    endpoint_scheme,
    ...plain
  } = body;
  const columns: RowChanges<'clients'> = { ...plain };
  if (timing_required !== undefined) columns.timing_required = toFlag(timing_required);
  if (topic_required !== undefined) columns.topic_required = toFlag(topic_required);
  if (address_country_code !== undefined) columns.address_country_code = address_country_code?.toLowerCase() ?? null;
  const endpoint = checkedEndpoint(ENDPOINT_FIELDS, endpoint_id, endpoint_scheme);
  if (endpoint !== undefined) {
    columns.endpoint_id = endpoint?.id ?? null;
    columns.endpoint_scheme = endpoint?.scheme ?? null;
  }
  const custom = customFieldsInput(body);
  if (custom.both)
    throw new AppError('VALIDATION_ERROR', 'Send custom_fields or its alias fields, not both', {
      reason: 'DUPLICATE_ALIAS',
      field: 'custom_fields',
    });
  if (custom.present) columns.custom_fields = custom.value;
  return columns;
}

/**
 * The parent must be a client the caller sees (and stays put while the child is written under it): a
 * restricted key gets the same INVALID_CLIENT for a client it cannot see as for a missing one.
 */
async function checkParent(ctx: Ctx, parentId: number | null | undefined): Promise<void> {
  if (parentId == null) return;
  if (!(await repo.lockClient(ctx, parentId)) || (await repo.templateOfPlanClient(ctx, parentId)))
    throw invalidReference('client', 'parent_id', parentId);
}

/**
 * A template (plan) client is part of its workflow template: renamed and deleted with it, never through
 * /clients (which would fire client events for configuration and could strand the template's master rows).
 */
async function assertNotTemplateClient(ctx: Ctx, id: number): Promise<void> {
  const plan = await repo.templateOfPlanClient(ctx, id);
  if (!plan) return;
  const path = plan.template_id !== null ? `/workflow-templates/${plan.template_id}` : '/workflow-templates';
  throw new AppError('READ_ONLY', `Client ${id} is a workflow template's client; change it through ${path}`, {
    reason: 'TEMPLATE_CLIENT',
    client_id: id,
    template_id: plan.template_id,
    path,
  });
}

async function checkReferences(ctx: Ctx, body: ClientInput, selfId?: number): Promise<void> {
  await assertCustomFieldValues(ctx, 'client', body);
  await assertReference(ctx, 'people', 'person', 'default_person_id', body.default_person_id);
  await checkParent(ctx, body.parent_id);
  await assertReferenceList(ctx, 'client_groups', 'INVALID_GROUP', 'groups', body.groups);
  if (selfId !== undefined && body.parent_id != null) {
    const chain = await repo.ancestorIds(ctx, body.parent_id);
    if (chain.includes(selfId))
      throw new AppError('INVALID_CLIENT', 'parent_id would make the client its own ancestor', {
        field: 'parent_id',
        value: body.parent_id,
      });
  }
}

export const listClients = (ctx: Ctx, params: ClientListParams) => repo.listClients(ctx, params);

export async function getClient(ctx: Ctx, id: number): Promise<ClientRecord> {
  return orNotFound(await repo.findClient(ctx, id), 'Client');
}

export async function createClient(ctx: Ctx, body: ClientCreateBody): Promise<ClientRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkReferences(tx, body);
    const columns = { ...columnsFrom(body), name: body.name };
    // A plain member's personal key keeps sight of what it creates: it becomes the responsible person.
    if (tx.actor.restricted && columns.default_person_id == null) columns.default_person_id = tx.actor.personId;
    const id = await repo.clients.insert(tx, columns);
    if (body.groups) await repo.replaceGroups(tx, id, body.groups);
    const client = await getClient(tx, id);
    // The whole record (as GET shows it): v1.0 delivers it so; v3's declared shape leaves the contacts out.
    await recordEvent(tx, 'client', 'created', client);
    return client;
  });
}

// Not mutate(): the record read back after the change is also the event's, so it is read once.
export async function updateClient(ctx: Ctx, id: number, body: ClientUpdateBody): Promise<ClientRecord> {
  return inTransaction(ctx, async (tx) => {
    orNotFound(await repo.lockClient(tx, id), 'Client');
    await assertNotTemplateClient(tx, id);
    if (Object.keys(body).length === 0) return getClient(tx, id);
    if (body.parent_id === id)
      throw new AppError('INVALID_CLIENT', 'A client cannot be its own parent', { field: 'parent_id', value: id });
    await checkReferences(tx, body, id);
    await repo.clients.update(tx, id, columnsFrom(body));
    if (body.groups) await repo.replaceGroups(tx, id, body.groups);
    const client = await getClient(tx, id);
    await recordEvent(tx, 'client', 'updated', leanClient(client));
    return client;
  });
}

export const deleteClient = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx) => {
    await assertNotTemplateClient(tx, id);
    await repo.clients.softDelete(tx, id);
    await recordEvent(tx, 'client', 'deleted', { id });
  });
