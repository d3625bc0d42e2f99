import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation, invalidReference } from '../../platform/errors.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type { BillingSettingsRecord, BillingSettingsUpdateBody } from './billing-settings.schemas.ts';
import { assertCurrency } from './currency.ts';
import { numberFormatProblem } from './invoice-number.ts';
import { updateBillingFields } from '../companies/index.ts';
import { isActiveSeller } from '../invoice-sellers/index.ts';
import * as repo from './billing-settings.repository.ts';

export const getBillingSettings = (ctx: Ctx): Promise<BillingSettingsRecord> => repo.readStored(ctx);

/** Checks that need no lock: the number format and the currency. */
function checkBody(body: BillingSettingsUpdateBody): void {
  if (body.invoice_number_format !== undefined) {
    const problem = numberFormatProblem(body.invoice_number_format);
    if (problem)
      throw domainValidation('INVALID_NUMBER_FORMAT', `invoice_number_format ${problem}`, {
        field: 'invoice_number_format',
      });
  }
  assertCurrency('default_currency', body.default_currency);
}

/**
 * PATCH: the feature flag and the currency are written where they live (the companies row), the rest to
 * billing_settings (created on the first write). The companies row is locked first, so concurrent PATCHes
 * queue and an If-Match, when sent, is compared with what is current.
 */
export async function updateBillingSettings(
  ctx: Ctx,
  body: BillingSettingsUpdateBody,
  precondition: Precondition | undefined,
): Promise<BillingSettingsRecord> {
  checkBody(body);
  return inTransaction(ctx, async (tx) => {
    const current = await repo.readStored(tx, true);
    if (precondition) assertFresh(precondition, current.updated_at);
    if (Object.keys(body).length === 0) return current;
    const sellerId = body.default_seller_id;
    if (sellerId !== undefined && sellerId !== null && !(await isActiveSeller(tx, sellerId)))
      throw invalidReference('seller', 'default_seller_id', sellerId);
    const { billing_active, default_currency, ...settings } = body;
    await updateBillingFields(tx, { billing_active, default_currency });
    await repo.upsertSettings(tx, settings);
    return repo.readStored(tx);
  });
}
