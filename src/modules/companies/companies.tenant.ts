import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import { ownCompany } from '../../platform/tenant-table.ts';

// The companies row is the tenant itself: reached through the platform's ownCompany (keyed by id, not company_id).

/** Switches one feature flag of the caller's company on; updated_at moves on like any settings write. */
export async function activateFeature(ctx: Ctx, key: string): Promise<void> {
  await ownCompany
    .update(ctx)
    .set({ features: sql<string>`features || jsonb_build_object(${key}::text, true)`, updated_at: nextStamp() })
    .execute();
}

/** Writes the billing flag and the currency of the caller's company, the one place each of them lives. */
export async function updateBillingFields(
  ctx: Ctx,
  fields: { billing_active?: boolean; default_currency?: string },
): Promise<void> {
  if (fields.billing_active === undefined && fields.default_currency === undefined) return;
  await ownCompany
    .update(ctx)
    .set({
      ...(fields.default_currency !== undefined ? { currency: fields.default_currency } : {}),
      ...(fields.billing_active !== undefined
        ? { features: sql<string>`features || jsonb_build_object('billing', ${fields.billing_active}::boolean)` }
        : {}),
      updated_at: sql<string>`greatest(date_trunc('milliseconds', clock_timestamp()), companies.updated_at + interval '1 millisecond')`,
    })
    .execute();
}
