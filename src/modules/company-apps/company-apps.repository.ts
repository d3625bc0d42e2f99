import type { CompanyAppListParams } from './company-apps.schemas.ts';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { scoped, type BaseQuery } from '../../platform/tenant-table.ts';
import { APP_KEYS } from './company-apps.catalogue.ts';
import { COMPANY_APP_LIST_OPTIONS } from './company-apps.schemas.ts';

type Query = BaseQuery<'company_apps', 'a'>;
export interface AppRow {
  id: number;
  key: string;
  active: boolean;
}

// Read from the companies row, not ctx.company, so an activation earlier in the transaction is seen.
const project = (query: Query) =>
  query.select([
    'a.id',
    'a.key',
    sql<boolean>`coalesce((select (co.features ->> a.key)::boolean from companies co where co.id = a.company_id), false)`.as(
      'active',
    ),
  ]);

/** Rows of apps the code still offers (a key dropped from the catalogue stops being listed). */
const base = (ctx: Ctx) => scoped.select(ctx, 'company_apps', 'a').where('a.key', 'in', [...APP_KEYS]);

export const listApps = (ctx: Ctx, params: CompanyAppListParams) =>
  listPage<AppRow & Record<string, unknown>, CompanyAppListParams>(ctx, {
    listId: 'company-apps',
    params,
    options: COMPANY_APP_LIST_OPTIONS,
    idColumn: 'a.id',
    project,
    base: () => base(ctx),
  });

export const findApp = (ctx: Ctx, id: number): Promise<AppRow | undefined> =>
  project(base(ctx).where('a.id', '=', id)).executeTakeFirst();

/** The catalogue's rows for a new company, inside createCompany's transaction. */
export async function seedApps(db: Executor, companyId: string): Promise<void> {
  await db
    .insertInto('company_apps')
    .values(APP_KEYS.map((key) => ({ company_id: companyId, key })))
    .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
    .execute();
}
