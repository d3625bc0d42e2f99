import type { Ctx } from '../../platform/context.ts';
import { assertCustomFieldValues } from '../custom-fields/index.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, invalidReference } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { customFieldsInput, toFlag } from '../../platform/fields.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { lockLive } from '../../platform/references.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type { ContactCreateBody, ContactListParams, ContactRecord, ContactUpdateBody } from './contacts.schemas.ts';
import * as repo from './contacts.repository.ts';

const target = { what: 'Contact', lock: repo.lockContact };

function columnsFrom(body: ContactCreateBody | ContactUpdateBody): RowChanges<'contacts'> {
  const { fields: _f, custom_fields: _c, is_primary, ...plain } = body;
  const columns: RowChanges<'contacts'> = { ...plain };
  if (is_primary !== undefined) columns.is_primary = toFlag(is_primary);
  const custom = customFieldsInput(body);
  if (custom.both)
    throw new AppError('VALIDATION_ERROR', 'Send custom_fields or its alias fields, not both', {
      reason: 'DUPLICATE_ALIAS',
      field: 'custom_fields',
    });
  if (custom.present) columns.custom_fields = custom.value;
  return columns;
}

/** The client must be a live, visible client of the company; locking it serialises primary-contact changes. */
async function requireClient(ctx: Ctx, clientId: number): Promise<void> {
  if (!(await lockLive(ctx, 'clients', clientId))) throw invalidReference('client', 'client_id', clientId);
}

async function afterPrimary(ctx: Ctx, contact: ContactRecord): Promise<void> {
  if (contact.is_primary !== 1) return;
  for (const id of await repo.demoteOtherPrimaries(ctx, contact.client_id, contact.id)) {
    await recordEvent(ctx, 'contact', 'updated', (await repo.findContact(ctx, id))!);
  }
}

export const listContacts = (ctx: Ctx, params: ContactListParams) => repo.listContacts(ctx, params);

export async function getContact(ctx: Ctx, id: number): Promise<ContactRecord> {
  return orNotFound(await repo.findContact(ctx, id), 'Contact');
}

export async function createContact(ctx: Ctx, body: ContactCreateBody): Promise<ContactRecord> {
  return inTransaction(ctx, async (tx) => {
    await requireClient(tx, body.client_id);
    await assertCustomFieldValues(tx, 'contact', body);
    const id = await repo.contacts.insert(tx, { ...columnsFrom(body), name: body.name, client_id: body.client_id });
    const contact = await getContact(tx, id);
    await afterPrimary(tx, contact);
    await recordEvent(tx, 'contact', 'created', contact);
    return contact;
  });
}

// Not mutate(): the record read back after the change is also the event's, so it is read once.
export async function updateContact(ctx: Ctx, id: number, body: ContactUpdateBody): Promise<ContactRecord> {
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockContact(tx, id), 'Contact');
    if (Object.keys(body).length === 0) return getContact(tx, id);
    await assertCustomFieldValues(tx, 'contact', body);
    if (body.client_id !== undefined && body.client_id !== current.client_id) await requireClient(tx, body.client_id);
    await repo.contacts.update(tx, id, columnsFrom(body));
    const contact = await getContact(tx, id);
    await afterPrimary(tx, contact);
    await recordEvent(tx, 'contact', 'updated', contact);
    return contact;
  });
}

export const deleteContact = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx) => {
    await repo.contacts.softDelete(tx, id);
    await recordEvent(tx, 'contact', 'deleted', { id });
  });
