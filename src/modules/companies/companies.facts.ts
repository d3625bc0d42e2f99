import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';

/** The company's currency: what a price or an invoice with no currency of its own is in. */
export async function companyCurrency(ctx: Ctx): Promise<string> {
  // tenant: deliberate SQL — the company row is the tenant itself.
  const company = await ctx.db
    .selectFrom('companies')
    .select('currency')
    .where('id', '=', ctx.companyId)
    .executeTakeFirstOrThrow();
  return company.currency;
}

/** The same as a scalar subquery for set-based SQL, correlated on the caller's company column (e.g. b.company_id). */
export function companyCurrencySql(companyId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(select co.currency from companies co where co.id = ${companyId})`;
}

/**
 * The company's own today (its time zone), as a scalar subquery correlated on a company column (e.g. k.company_id):
 * for maintenance passes over all companies at once.
 */
export function companyTodaySql(companyId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(select (now() at time zone co.timezone)::date from companies co where co.id = ${companyId})`;
}

/** Whether an app (billing, analytics, drive) is switched on for the caller's company, as a boolean column. */
export function companyFeatureSql(ctx: Ctx, feature: 'billing' | 'analytics' | 'drive'): RawBuilder<boolean> {
  // tenant: deliberate SQL — the company row is the tenant itself.
  return sql<boolean>`coalesce((select (co.features ->> ${sql.lit(feature)})::boolean from companies co where co.id = ${ctx.companyId}), false)`;
}
