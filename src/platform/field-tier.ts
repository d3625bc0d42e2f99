import type { Ctx } from './context.ts';
import { AppError } from './errors.ts';
import { hasTier } from './scopes.ts';

/**
 * Field-level tiers: a route open to `write` may carry fields that need more (money fields need admin,
 * which carries financials). 403 naming the tier and the fields sent, before anything is written.
 */
export function assertFieldTier(
  ctx: Ctx,
  body: object,
  fields: readonly string[],
  tier: 'admin' | 'financials' = 'financials',
): void {
  const sent = fields.filter((field) => (body as Record<string, unknown>)[field] !== undefined);
  if (sent.length === 0 || hasTier(ctx.key.scopes, tier)) return;
  if (tier === 'financials')
    throw new AppError(
      'FINANCIAL_SCOPE_REQUIRED',
      `Writing ${sent.join(', ')} needs the financials tier (carried by admin keys)`,
      { required_scope: 'financials', fields: sent },
    );
  throw new AppError('FORBIDDEN', `Writing ${sent.join(', ')} needs the admin scope`, {
    required_scope: 'admin',
    fields: sent,
  });
}

/** Money fields read as null without the financials tier (the record stays readable). */
export function nullWithoutFinancials<T extends Record<string, unknown>>(
  ctx: Ctx,
  record: T,
  fields: readonly string[],
): T {
  if (hasTier(ctx.key.scopes, 'financials')) return record;
  const copy: Record<string, unknown> = { ...record };
  for (const field of fields) if (field in copy) copy[field] = field === 'prices' ? [] : null;
  return copy as T;
}
