import type { CustomFieldListParams } from './custom-fields.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery, tenant } from '../../platform/tenant-table.ts';
import {
  CUSTOM_FIELD_LIST_OPTIONS,
  type CustomFieldRecord,
  type EntityType,
  type FieldStatus,
} from './custom-fields.schemas.ts';

export const customFields = tenantTable('custom_fields', {
  alias: 'f',
  softDelete: true,
  lockColumns: ['name', 'field_type', 'entity_type', 'is_system', 'options'],
});
type Query = BaseQuery<'custom_fields', 'f'>;

/** The table holding each entity's records (and so its custom_fields values). */
export const ENTITY_TABLES: Record<EntityType, { table: string; softDelete: boolean }> = {
  client: { table: 'clients', softDelete: true },
  contact: { table: 'contacts', softDelete: true },
  task: { table: 'tasks', softDelete: true },
  project: { table: 'projects', softDelete: true },
  member: { table: 'members', softDelete: false },
};

function project(query: Query) {
  return query.select([
    'f.id',
    'f.name',
    'f.field_type',
    'f.entity_type',
    'f.status',
    'f.options',
    'f.is_system',
    'f.created_at',
    'f.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<CustomFieldListParams>) {
  let q = query;
  const entities = splitList(filters.entity_type) as EntityType[] | undefined;
  if (entities) q = q.where('f.entity_type', 'in', entities);
  const statuses = splitList(filters.status) as FieldStatus[] | undefined;
  if (statuses) q = q.where('f.status', 'in', statuses);
  if (filters.is_system !== undefined)
    q = q.where('f.is_system', '=', filters.is_system === 'true' || filters.is_system === '1');
  if (filters.q !== undefined) q = q.where('f.name', 'ilike', likeContains(filters.q));
  return q;
}

export function listCustomFields(ctx: Ctx, params: CustomFieldListParams) {
  return listPage<CustomFieldRecord, CustomFieldListParams>(ctx, {
    listId: 'custom-fields',
    params,
    options: CUSTOM_FIELD_LIST_OPTIONS,
    idColumn: 'f.id',
    project,
    base: (filters) => applyFilters(customFields.base(ctx), filters),
  });
}

export async function findCustomField(ctx: Ctx, id: number): Promise<CustomFieldRecord | undefined> {
  return firstRecord<CustomFieldRecord>(project(customFields.base(ctx).where('f.id', '=', id)));
}

/** Whether a live definition of that name (any letter case) exists for the entity type. */
export async function nameTaken(ctx: Ctx, entity: EntityType, name: string): Promise<boolean> {
  const row = await customFields
    .base(ctx)
    .select('f.id')
    .where('f.entity_type', '=', entity)
    .where(sql<boolean>`lower(f.name) = lower(${name})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The company's definitions for an entity type (active and inactive), keyed by name. */
export async function definitionsFor(ctx: Ctx, entity: EntityType) {
  const rows = await customFields
    .base(ctx)
    .select(['f.name', 'f.field_type', 'f.status', 'f.options'])
    .where('f.entity_type', '=', entity)
    .execute();
  return new Map(rows.map((r) => [r.name, r]));
}

/**
 * Which of `options` a live record of the entity still stores under the field's key (a select value or an
 * element of a multiselect list: jsonb `?` matches both a string scalar and an array element).
 */
export async function optionsInUse(
  ctx: Ctx,
  entity: EntityType,
  name: string,
  options: readonly string[],
): Promise<string[]> {
  if (options.length === 0) return [];
  const { table, softDelete } = ENTITY_TABLES[entity];
  const live = softDelete ? sql`and r.deleted_at is null` : sql``;
  // tenant: deliberate SQL (the entity's table is chosen at run time; the company predicate is written here).
  const result = await sql<{ option: string }>`select o as option from unnest(${[...options]}::text[]) o
    where exists (select 1 from ${sql.table(table)} r where ${tenant(ctx, 'r')} ${live}
      and (r.custom_fields -> ${name}) ? o)
    order by o`.execute(ctx.db);
  return result.rows.map((r) => r.option);
}
