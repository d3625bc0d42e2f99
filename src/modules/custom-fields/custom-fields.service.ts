import type { CustomFieldListParams } from './custom-fields.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, fail } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import {
  CHOICE_TYPES,
  type CustomFieldCreateBody,
  type CustomFieldRecord,
  type CustomFieldUpdateBody,
  type EntityType,
  type FieldType,
} from './custom-fields.schemas.ts';
import * as repo from './custom-fields.repository.ts';

interface Locked {
  name: string;
  field_type: FieldType;
  entity_type: EntityType;
  is_system: boolean;
  options: string[];
}
const IMMUTABLE = ['name', 'field_type', 'entity_type'] as const;

const target = {
  what: 'Custom field',
  lock: repo.customFields.lock as (ctx: Ctx, id: number) => Promise<Locked | undefined>,
  read: repo.findCustomField,
};

const exists = (entity: string, name: string) =>
  new AppError('CUSTOM_FIELD_EXISTS', `A ${entity} custom field named "${name}" already exists`, {
    field: 'name',
    entity_type: entity,
    name,
  });

/** Choice types need their options; the other types have none (a stray list would be silently meaningless). */
function checkOptions(fieldType: FieldType, options: readonly string[] | undefined): void {
  const choice = CHOICE_TYPES.has(fieldType);
  if (choice && (options === undefined || options.length === 0))
    fail('VALIDATION_ERROR', `options is required for a ${fieldType} field`, {
      errors: [{ field: 'options', message: `is required for a ${fieldType} field` }],
    });
  if (!choice && options !== undefined && options.length > 0)
    fail('VALIDATION_ERROR', `options is only for select and multiselect fields`, {
      errors: [{ field: 'options', message: `must be empty for a ${fieldType} field` }],
    });
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export const listCustomFields = (ctx: Ctx, params: CustomFieldListParams) => repo.listCustomFields(ctx, params);

export async function getCustomField(ctx: Ctx, id: number): Promise<CustomFieldRecord> {
  return orNotFound(await repo.findCustomField(ctx, id), 'Custom field');
}

export async function createCustomField(ctx: Ctx, body: CustomFieldCreateBody): Promise<CustomFieldRecord> {
  checkOptions(body.field_type, body.options);
  return inTransaction(ctx, async (tx) => {
    if (await repo.nameTaken(tx, body.entity_type, body.name)) throw exists(body.entity_type, body.name);
    const id = await repo.customFields
      .insert(tx, {
        name: body.name,
        field_type: body.field_type,
        entity_type: body.entity_type,
        status: body.status ?? 'active',
        options: JSON.stringify(body.options ?? []),
      })
      .catch((error: unknown) => {
        // A concurrent create of the same name got there first (the unique index decides).
        throw isUniqueViolation(error) ? exists(body.entity_type, body.name) : error;
      });
    return getCustomField(tx, id);
  });
}

/** 403 for a system field, or for a change of name, field_type or entity_type (re-sending the same value is fine). */
function checkWritable(locked: Locked, body: CustomFieldUpdateBody): void {
  if (locked.is_system)
    fail('CUSTOM_FIELD_READ_ONLY', 'System custom fields are read-only', { field: Object.keys(body)[0] });
  for (const field of IMMUTABLE)
    if (body[field] !== undefined && body[field] !== locked[field])
      fail('CUSTOM_FIELD_READ_ONLY', `${field} cannot change after a custom field is created`, { field });
}

/** Removing an option a live record still stores would leave that record invalid: refused, naming the options. */
async function checkRemovedOptions(tx: Ctx, locked: Locked, options: readonly string[]): Promise<void> {
  const removed = locked.options.filter((o) => !options.includes(o));
  const inUse = await repo.optionsInUse(tx, locked.entity_type, locked.name, removed);
  if (inUse.length > 0)
    fail('CUSTOM_FIELD_OPTION_IN_USE', `Option(s) still used by ${locked.entity_type} records: ${inUse.join(', ')}`, {
      field: 'options',
      options: inUse,
    });
}

export const updateCustomField = (ctx: Ctx, id: number, body: CustomFieldUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    checkWritable(locked, body);
    const { status, options } = body;
    if (options !== undefined) {
      checkOptions(locked.field_type, options);
      await checkRemovedOptions(tx, locked, options);
    }
    if (status === undefined && options === undefined) return;
    await repo.customFields.update(tx, id, {
      ...(status !== undefined ? { status } : {}),
      ...(options !== undefined ? { options: JSON.stringify(options) } : {}),
    });
  });

/** Values already stored under a deleted field stay in the records; they are refused on the records' next write. */
export const deleteCustomField = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx, locked) => {
    if (locked.is_system) fail('CUSTOM_FIELD_NOT_DELETABLE', 'System custom fields cannot be deleted');
    await repo.customFields.softDelete(tx, id);
  });
