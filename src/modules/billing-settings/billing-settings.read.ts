import type { Ctx } from '../../platform/context.ts';
import { readStored } from './billing-settings.repository.ts';

export interface BillingSettingsValues {
  billing_active: boolean;
  default_currency: string;
  default_seller_id: number | null;
  invoice_number_format: string;
  payment_term_days: number;
  default_locale_code: string;
}

/** The company's billing settings (defaults when never written), for invoices and contracts. */
export async function readBillingSettings(ctx: Ctx): Promise<BillingSettingsValues> {
  const { updated_at: _updatedAt, ...values } = await readStored(ctx);
  return values;
}
