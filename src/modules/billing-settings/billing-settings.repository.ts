import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, ownCompany } from '../../platform/tenant-table.ts';
import { isoz } from '../../platform/sql.ts';
import { DEFAULT_NUMBER_FORMAT } from './invoice-number.ts';

/** What a company without a billing_settings row has (the table's column defaults). */
export const DEFAULTS = {
  default_seller_id: null,
  invoice_number_format: DEFAULT_NUMBER_FORMAT,
  payment_term_days: 14,
  default_locale_code: 'en',
} as const;

export interface StoredSettings {
  billing_active: boolean;
  default_currency: string;
  default_seller_id: number | null;
  invoice_number_format: string;
  payment_term_days: number;
  default_locale_code: string;
  /** The row's updated_at, or the company's when no row exists yet. */
  updated_at: string;
}

/**
 * One read of the company row joined with its (optional) settings row. The company is read from the
 * table, not from ctx.company, so a PATCH earlier in the same transaction is seen.
 */
export async function readStored(ctx: Ctx, lock = false): Promise<StoredSettings> {
  // tenant: deliberate SQL — the companies row is the tenant itself (keyed by id, not company_id).
  let query = ownCompany
    .selectAs(ctx, 'c')
    .leftJoin('billing_settings as b', 'b.company_id', 'c.id')
    .select([
      sql<boolean>`coalesce((c.features ->> 'billing')::boolean, false)`.as('billing_active'),
      'c.currency as default_currency',
      'b.default_seller_id',
      sql<string>`coalesce(b.invoice_number_format, ${DEFAULTS.invoice_number_format})`.as('invoice_number_format'),
      sql<number>`coalesce(b.payment_term_days, ${DEFAULTS.payment_term_days})`.as('payment_term_days'),
      sql<string>`coalesce(b.default_locale_code, ${DEFAULTS.default_locale_code})`.as('default_locale_code'),
      sql<string>`case when b.company_id is null then ${isoz('c.updated_at')} else ${isoz('b.updated_at')} end`.as(
        'updated_at',
      ),
    ]);
  if (lock) query = query.forUpdate('c');
  const row = await query.executeTakeFirstOrThrow();
  return { ...row, payment_term_days: Number(row.payment_term_days), default_seller_id: row.default_seller_id ?? null };
}

export interface SettingsChanges {
  default_seller_id?: number | null;
  invoice_number_format?: string;
  payment_term_days?: number;
  default_locale_code?: string;
}

/** Creates the row on first write (upsert) and moves updated_at on. */
export async function upsertSettings(ctx: Ctx, changes: SettingsChanges): Promise<void> {
  const insert = scoped.insert(ctx, 'billing_settings', [{ ...changes }]);
  await insert
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet({
        ...changes,
        updated_at: sql<string>`greatest(date_trunc('milliseconds', clock_timestamp()), billing_settings.updated_at + interval '1 millisecond')`,
      }),
    )
    .execute();
}
