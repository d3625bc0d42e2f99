import type { FastifyInstance } from 'fastify';
import type { Ctx } from './context.ts';
import { AppError } from './errors.ts';
import { hasTier } from './scopes.ts';

/**
 * The fields of `fields` a body sends. A dotted name reaches one level into an object field: 'settings.currency'
 * is sent when the body's settings object carries currency (null included: clearing is writing).
 */
export function sentFields(body: unknown, fields: readonly string[]): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  return fields.filter((field) => {
    const [head, key] = field.split('.', 2) as [string, string | undefined];
    const value = (body as Record<string, unknown>)[head];
    return key === undefined ? value !== undefined : isObject(value) && value[key] !== undefined;
  });
}

/**
 * Field-level tiers: a route open to `write` may carry fields that need more (money fields need admin,
 * which carries financials). 403 naming the tier and the fields sent, before anything is written.
 */
export function assertFieldTier(
  ctx: Ctx,
  body: unknown,
  fields: readonly string[],
  tier: 'admin' | 'financials' = 'financials',
): void {
  const sent = sentFields(body, fields);
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

/**
 * The money rule of a route open below the financials tier, declared once per route (route() `money`), enforced
 * here for every such route: a body sending a `write` field without financials is 403 FINANCIAL_SCOPE_REQUIRED
 * naming the fields, before validation (nothing is written); the record such a key is answered reads its `read`
 * fields as null, lists as [] (the key may write the record, not read its money).
 */
export function registerMoneyFields(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const money = request.routeOptions.config.money;
    if (money && request.ctx) assertFieldTier(request.ctx, request.body, money.write, 'financials');
  });
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const read = request.routeOptions.config.money?.read;
    if (!read || !request.ctx || hasTier(request.ctx.key.scopes, 'financials')) return payload;
    const data = (payload as { data?: unknown } | null)?.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return payload;
    const hidden: Record<string, unknown> = { ...data };
    for (const field of read) if (field in hidden) hidden[field] = Array.isArray(hidden[field]) ? [] : null;
    return { ...(payload as object), data: hidden };
  });
}
