import type { TaxListParams } from './taxes.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { AMOUNT, Dec, decimalInput } from '../../platform/money.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type { TaxCreateBody, TaxRecord, TaxUpdateBody } from './taxes.schemas.ts';
import * as repo from './taxes.repository.ts';

const PERCENT = { places: 4, min: 0, max: 100 } as const;

function rateText(rate: number): string {
  // A percent sent as a rate (22 for 22 %) is the usual mistake: say so rather than only "out of range".
  if (rate > 1 || rate < 0)
    throw domainValidation('OUT_OF_RANGE', 'rate is a fraction from 0 to 1 (22 % is 0.22; or send percent: 22)', {
      field: 'rate',
      min: 0,
      max: 1,
    });
  return decimalInput('rate', rate, AMOUNT.taxRate);
}

/**
 * The rate to store (a fraction as exact decimal text) from rate and/or percent, or undefined when
 * neither was sent. Both sent must name the same rate.
 */
function storedRate(body: { rate?: number; percent?: number }): string | undefined {
  const fromRate = body.rate === undefined ? undefined : rateText(body.rate);
  const fromPercent =
    body.percent === undefined
      ? undefined
      : new Dec(decimalInput('percent', body.percent, PERCENT)).dividedBy(100).toFixed();
  if (fromRate !== undefined && fromPercent !== undefined && !new Dec(fromRate).equals(fromPercent))
    throw domainValidation('RATE_PERCENT_MISMATCH', 'rate and percent name different rates (percent = rate × 100)', {
      field: 'percent',
      fields: ['rate', 'percent'],
    });
  return fromRate ?? fromPercent;
}

export const listTaxes = (ctx: Ctx, params: TaxListParams) => repo.listTaxes(ctx, params);

export async function getTax(ctx: Ctx, id: number): Promise<TaxRecord> {
  return orNotFound(await repo.findTax(ctx, id), 'Tax');
}

export async function createTax(ctx: Ctx, body: TaxCreateBody): Promise<TaxRecord> {
  const rate = storedRate(body);
  if (rate === undefined)
    throw domainValidation('REQUIRED', 'Send rate (a fraction, 0.22) or percent (22)', { field: 'rate' });
  return inTransaction(ctx, async (tx) => {
    const id = await repo.taxes.insert(tx, { name: body.name, status: body.status ?? 'active', rate });
    return getTax(tx, id);
  });
}

/**
 * PATCH: the rate (sent as rate or percent) needs admin (the route's money fields) and a fresh If-Match, compared
 * under the row lock so two writers cannot both pass; name and status need neither.
 */
export async function updateTax(
  ctx: Ctx,
  id: number,
  body: TaxUpdateBody,
  preconditionOf: () => Precondition,
): Promise<TaxRecord> {
  const rate = storedRate(body);
  const precondition = rate === undefined ? undefined : preconditionOf();
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.taxes.lock(tx, id), 'Tax');
    if (precondition) assertFresh(precondition, current.updated_at as string);
    if (Object.keys(body).length === 0) return getTax(tx, id);
    const { rate: _rate, percent: _percent, ...plain } = body;
    const changes: RowChanges<'taxes'> = rate === undefined ? plain : { ...plain, rate };
    await repo.taxes.update(tx, id, changes);
    return getTax(tx, id);
  });
}
