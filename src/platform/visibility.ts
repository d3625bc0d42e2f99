import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from './context.ts';

/**
 * What a personal key of a plain member may see (owners and admins, and integration keys, see the whole
 * company). Each module declares the rule of its tables (`visibility` in its index.ts); the tenant gateway
 * applies a table's rule to every base query, lock and read of a restricted key, and the reference checks
 * (references.ts) to every id such a key names, so a record it cannot see is absent to it everywhere.
 */
export type VisibilityRule = (ctx: Ctx, alias: string) => RawBuilder<boolean>;

let rules: Readonly<Record<string, VisibilityRule>> | undefined;

/** Called by collectModules with every module's rules. */
export function installVisibility(declared: Readonly<Record<string, VisibilityRule>>): void {
  rules = declared;
}

/**
 * The table's declared rule (undefined: every row is visible). Read at query time, after the modules are
 * collected; before that it throws, since answering "all visible" by accident would leak hidden records.
 */
export function visibilityOf(table: string): VisibilityRule | undefined {
  if (!rules) throw new Error('visibility rules are not installed yet (loadModules() installs them)');
  return rules[table];
}

const ALL = sql<boolean>`true`;

/** Rows of `table` under `alias` that ctx sees, by the rule its module declares. */
export function rowVisible(ctx: Ctx, table: string, alias: string): RawBuilder<boolean> {
  const rule = ctx.actor.restricted ? visibilityOf(table) : undefined;
  return rule ? rule(ctx, alias) : ALL;
}

/** A live (not soft-deleted) row of `table` with the id `idRef` in `companyRef` that ctx sees. */
export function idVisible(ctx: Ctx, table: string, companyRef: string, idRef: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return ALL;
  const alias = `v_${table}`;
  return sql<boolean>`exists (select 1 from ${sql.table(table)} ${sql.id(alias)}
    where ${sql.ref(`${alias}.company_id`)} = ${sql.ref(companyRef)} and ${sql.ref(`${alias}.id`)} = ${sql.ref(idRef)}
      and ${sql.ref(`${alias}.deleted_at`)} is null and ${rowVisible(ctx, table, alias)})`;
}

/** The rule of rows that hang off a parent by one of their columns (contacts by client_id...): the parent's. */
export const throughParent =
  (table: string, column: string): VisibilityRule =>
  (ctx, alias) =>
    idVisible(ctx, table, `${alias}.company_id`, `${alias}.${column}`);

/** A rule that only looks at the row's own person columns (no parent): the member is one of them. */
export const ownPerson =
  (...columns: readonly string[]): VisibilityRule =>
  (ctx, alias) => {
    if (!ctx.actor.restricted) return ALL;
    const person = ctx.actor.personId;
    return sql<boolean>`(${sql.join(
      columns.map((column) => sql`${sql.ref(`${alias}.${column}`)} = ${person}`),
      sql` or `,
    )})`;
  };
