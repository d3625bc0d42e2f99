import type { ProductFieldListParams } from './product-fields.schemas.ts';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { firstRecord, likeContains } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import {
  PRODUCT_FIELD_LIST_OPTIONS,
  type ProductFieldKind,
  type ProductFieldRecord,
} from './product-fields.schemas.ts';

export const productFields = tenantTable('product_fields', {
  alias: 'pf',
  softDelete: true,
  lockColumns: ['kind', 'code', 'is_system'],
});
type Query = BaseQuery<'product_fields', 'pf'>;

export interface LockedField {
  id: number;
  kind: ProductFieldKind;
  code: string;
  is_system: boolean;
}

function project(query: Query) {
  return query.select([
    'pf.id',
    'pf.kind',
    'pf.code',
    'pf.name',
    'pf.status',
    'pf.is_system',
    'pf.created_at',
    'pf.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<ProductFieldListParams>) {
  let q = query;
  const kinds = splitList(filters.kind);
  if (kinds) q = q.where('pf.kind', 'in', kinds as ProductFieldKind[]);
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('pf.status', 'in', statuses as Array<'active' | 'inactive'>);
  if (filters.is_system !== undefined) q = q.where('pf.is_system', '=', filters.is_system);
  if (filters.q !== undefined) {
    const pattern = likeContains(filters.q);
    q = q.where((eb) => eb.or([eb('pf.code', 'ilike', pattern), eb('pf.name', 'ilike', pattern)]));
  }
  return q;
}

export function listProductFields(ctx: Ctx, params: ProductFieldListParams) {
  return listPage<ProductFieldRecord, ProductFieldListParams>(ctx, {
    listId: 'product-fields',
    params,
    options: PRODUCT_FIELD_LIST_OPTIONS,
    idColumn: 'pf.id',
    project,
    base: (filters) => applyFilters(productFields.base(ctx), filters),
  });
}

export async function findProductField(ctx: Ctx, id: number): Promise<ProductFieldRecord | undefined> {
  return firstRecord<ProductFieldRecord>(project(productFields.base(ctx).where('pf.id', '=', id)));
}

/** Another live entry of the kind already has the code (case-insensitive), as the unique index would say. */
export async function codeTaken(ctx: Ctx, kind: string, code: string, exceptId?: number): Promise<boolean> {
  let query = productFields
    .base(ctx)
    .where('pf.kind', '=', kind as ProductFieldKind)
    .where(sql`lower(pf.code)`, '=', code.toLowerCase());
  if (exceptId !== undefined) query = query.where('pf.id', '<>', exceptId);
  return (await query.select('pf.id').executeTakeFirst()) !== undefined;
}

/** Live, active entries among the ids, with their kind: what a product or row may newly reference. */
export async function activeKinds(ctx: Ctx, ids: readonly number[]): Promise<Map<number, ProductFieldKind>> {
  if (ids.length === 0) return new Map();
  const rows = await productFields
    .base(ctx)
    .where('pf.id', 'in', [...ids])
    .where('pf.status', '=', 'active')
    .select(['pf.id', 'pf.kind'])
    .execute();
  return new Map(rows.map((r) => [r.id, r.kind as ProductFieldKind]));
}

const COLUMN_OF = { article: 'article_id', resource: 'resource_id', billing_project: 'billing_project_id' } as const;

/**
 * How many live products and rows of live contracts reference the entry through the column of its kind.
 * Invoice rows are not counted: they are history and keep the id whatever happens to the lookup.
 */
export async function countUses(
  ctx: Ctx,
  kind: ProductFieldKind,
  id: number,
): Promise<{ products: number; contract_rows: number }> {
  if (kind === 'cost_center') return { products: 0, contract_rows: 0 };
  const column = COLUMN_OF[kind];
  const products = await scoped
    .select(ctx, 'products', 'p')
    .where(sql.ref(`p.${column}`), '=', id)
    .where('p.deleted_at', 'is', null)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  const rows = await scoped
    .select(ctx, 'contract_rows', 'r')
    .innerJoin('contracts as c', (join) =>
      join.onRef('c.company_id', '=', 'r.company_id').onRef('c.id', '=', 'r.contract_id'),
    )
    .where(sql.ref(`r.${column}`), '=', id)
    .where('c.deleted_at', 'is', null)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return { products: products.n, contract_rows: rows.n };
}

export async function insertSystemFields(
  db: Executor,
  companyId: string,
  entries: ReadonlyArray<{ kind: ProductFieldKind; code: string; name: string }>,
): Promise<void> {
  // tenant: the company being created, not a caller's
  await db
    .insertInto('product_fields')
    .values(entries.map((e) => ({ company_id: companyId, ...e, status: 'active', is_system: true })))
    .execute();
}
