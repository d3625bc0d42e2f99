import {
  sql,
  type Insertable,
  type InsertObject,
  type RawBuilder,
  type SelectQueryBuilder,
  type UpdateObject,
  type Updateable,
} from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Ctx } from './context.ts';
import { nextStamp } from './sql.ts';
import { visibilityOf, type VisibilityRule } from './visibility.ts';

/**
 * The tenant gateway: every table that holds a company's rows is reached through here, so the
 * predicate `company_id = <the caller's company>` is written once, in this file, and a repository
 * cannot forget it. Deliberate SQL (recursive walks, JSON built in SQL) may still write it by hand.
 */

/** Tables with a company_id and an integer id. */
export type TenantTableName = {
  [K in keyof DB]: DB[K] extends { company_id: unknown; id: unknown } ? K : never;
}[keyof DB];
/** Tables with a company_id (link tables without an id included). */
export type CompanyTableName = { [K in keyof DB]: DB[K] extends { company_id: unknown } ? K : never }[keyof DB];

type Aliased<T extends keyof DB, A extends string> = DB & { [K in A]: DB[T] };
/** The query a gateway's base() answers: FROM the table under its alias, WHERE tenant (and live, and visible). */
export type BaseQuery<T extends keyof DB, A extends string> = SelectQueryBuilder<Aliased<T, A>, A, {}>;
export type NewRow<T extends keyof DB> = Omit<Insertable<DB[T]>, 'company_id'>;
/** Like NewRow, but values may be SQL expressions (nowStamp()...). */
export type NewRowValues<T extends keyof DB> = Omit<InsertObject<DB, T>, 'company_id'>;
export type RowChanges<T extends keyof DB> = Omit<Updateable<DB[T]>, 'company_id' | 'id'>;
/** Like RowChanges, but values may be SQL expressions (nowStamp()...). */
export type RowUpdate<T extends keyof DB> = Omit<UpdateObject<DB, T, T>, 'company_id' | 'id'>;

export interface TenantTableOptions<A extends string> {
  alias: A;
  /** Rows carry deleted_at: deleted rows vanish from base(), lock() and softDelete(). */
  softDelete?: boolean;
  /**
   * The visibility rule for restricted (personal) keys: by default the rule the table's module declares
   * (src/platform/visibility.ts); null only for a deliberate company-wide view of the rows.
   */
  visible?: VisibilityRule | null;
  /** Columns lock() returns besides id and updated_at. */
  lockColumns?: readonly string[];
}

// Kysely cannot type a predicate on a table chosen by a type parameter; the casts stay in this file.
type Loose = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Scoped builders for any company table, for the shapes base() does not cover (link tables, bulk updates). */
export const scoped = {
  select<T extends CompanyTableName, A extends string>(ctx: Ctx, table: T, alias: A): BaseQuery<T, A> {
    return (ctx.db as Loose).selectFrom(`${table} as ${alias}`).where(`${alias}.company_id`, '=', ctx.companyId);
  },
  update<T extends CompanyTableName>(ctx: Ctx, table: T) {
    return ctx.db.updateTable(table as CompanyTableName).where('company_id' as Loose, '=', ctx.companyId);
  },
  delete<T extends CompanyTableName>(ctx: Ctx, table: T) {
    return ctx.db.deleteFrom(table as CompanyTableName).where('company_id' as Loose, '=', ctx.companyId);
  },
  /** Inserts rows for the caller's company (the company id is never taken from the values). */
  insert<T extends CompanyTableName>(ctx: Ctx, table: T, rows: ReadonlyArray<NewRowValues<T>>) {
    return ctx.db.insertInto(table).values(rows.map((row) => ({ ...row, company_id: ctx.companyId })) as Loose);
  },
};

/** The caller's own companies row: the tenant itself, keyed by id rather than company_id. */
export const ownCompany = {
  select: (ctx: Ctx) => ctx.db.selectFrom('companies').where('id', '=', ctx.companyId),
  /** Under an alias, for joins from the company row (its settings). */
  selectAs: <A extends string>(ctx: Ctx, alias: A): BaseQuery<'companies', A> =>
    (ctx.db as Loose).selectFrom(`companies as ${alias}`).where(`${alias}.id`, '=', ctx.companyId),
  update: (ctx: Ctx) => ctx.db.updateTable('companies').where('id', '=', ctx.companyId),
};

/**
 * Raw SQL's tenant predicate, `<alias>.company_id = <the caller's company>`, for statements the builders cannot
 * express (recursive walks, INSERT ... SELECT). The alias is a literal of the statement, never input.
 */
export const tenant = (ctx: Ctx, alias?: string): RawBuilder<boolean> =>
  sql<boolean>`${sql.raw(alias ? `${alias}.company_id` : 'company_id')} = ${ctx.companyId}`;

/** Serialises one kind of write of the caller's company until the transaction ends (key `<scope>:<company>`). */
export async function lockCompanyScope(ctx: Ctx, scope: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`${scope}:${ctx.companyId}`}))`.execute(ctx.db);
}

/** The caller's company as a uuid value: the company_id an INSERT ... SELECT writes. */
export const companyValue = (ctx: Ctx): RawBuilder<string> => sql<string>`${ctx.companyId}::uuid`;

export type TenantTable<T extends TenantTableName, A extends string> = ReturnType<typeof tenantTable<T, A>>;

/** The repeated shapes of a tenant table: base query, lock, insert, update, soft delete. */
export function tenantTable<T extends TenantTableName, A extends string>(table: T, options: TenantTableOptions<A>) {
  const { alias } = options;
  // Looked up per query: the modules declare their rules after their repositories are loaded.
  const visibleRule = () => (options.visible === undefined ? visibilityOf(table) : options.visible);
  const col = (name: string) => `${alias}.${name}` as Loose;
  const lockColumns = ['id', 'updated_at', ...(options.lockColumns ?? [])].map(col);

  const base = (ctx: Ctx): BaseQuery<T, A> => {
    let query: Loose = scoped.select(ctx, table, alias);
    if (options.softDelete) query = query.where(col('deleted_at'), 'is', null);
    const visible = ctx.actor.restricted ? visibleRule() : undefined;
    if (visible) query = query.where(visible(ctx, alias));
    return query;
  };

  return {
    table,
    alias,
    base,
    /** Locks the live, visible row for the rest of the transaction; undefined when absent, deleted, invisible or another tenant's. */
    lock: (ctx: Ctx, id: number): Promise<Record<string, unknown> | undefined> =>
      (base(ctx) as Loose).where(col('id'), '=', id).select(lockColumns).forUpdate().executeTakeFirst(),
    async insert(ctx: Ctx, values: NewRowValues<T>): Promise<number> {
      const row = await scoped
        .insert(ctx, table, [values])
        .returning('id' as Loose)
        .executeTakeFirstOrThrow();
      return (row as { id: number }).id;
    },
    /** Changes the row and moves updated_at on (the ETag changes with every write). */
    async update(ctx: Ctx, id: number | readonly number[], values: RowUpdate<T>): Promise<void> {
      const ids = typeof id === 'number' ? [id] : [...id];
      if (ids.length === 0) return;
      await scoped
        .update(ctx, table)
        .set({ ...values, updated_at: nextStamp() } as Loose)
        .where('id' as Loose, 'in', ids)
        .execute();
    },
    /** The spec's DELETE: the rows stay, marked deleted, and vanish from every read and list. There is no restore. */
    async softDelete(ctx: Ctx, ids: number | readonly number[]): Promise<void> {
      const list = typeof ids === 'number' ? [ids] : [...ids];
      if (list.length === 0) return;
      // tenant: deliberate SQL — the tenant helper itself writes the company predicate.
      await sql`update ${sql.table(table)} set deleted_at = now(), updated_at = ${nextStamp()}
        where company_id = ${ctx.companyId} and id = any(${list}::int[]) and deleted_at is null`.execute(ctx.db);
    },
    /** Removes rows for good (tables without soft delete). */
    async remove(ctx: Ctx, ids: number | readonly number[]): Promise<void> {
      const list = typeof ids === 'number' ? [ids] : [...ids];
      if (list.length > 0)
        await scoped
          .delete(ctx, table)
          .where('id' as Loose, 'in', list)
          .execute();
    },
  };
}
