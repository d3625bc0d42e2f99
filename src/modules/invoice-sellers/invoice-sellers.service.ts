import type { InvoiceSellerListParams } from './invoice-sellers.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { checkedEndpoint } from '../../platform/eas.ts';
import { assertLogoUrl, normalizeIban } from './invoice-sellers.checks.ts';
import {
  type InvoiceSellerCreateBody,
  type InvoiceSellerRecord,
  type InvoiceSellerUpdateBody,
} from './invoice-sellers.schemas.ts';
import * as repo from './invoice-sellers.repository.ts';

/** The body as columns, with IBANs compacted, the logo URL and the electronic address checked (400 naming the field otherwise). */
function columnsFrom(body: InvoiceSellerUpdateBody): RowChanges<'invoice_sellers'> {
  const columns: RowChanges<'invoice_sellers'> = { ...body };
  for (const field of ['iban_1', 'iban_2'] as const) {
    const value = body[field];
    if (typeof value === 'string') columns[field] = value.trim() === '' ? null : normalizeIban(field, value);
  }
  if (typeof body.logo_url === 'string') {
    if (body.logo_url === '') columns.logo_url = null;
    else assertLogoUrl(body.logo_url);
  }
  const endpoint = checkedEndpoint(ENDPOINT_FIELDS, body.endpoint_id, body.endpoint_scheme);
  if (endpoint !== undefined) {
    columns.endpoint_id = endpoint?.id ?? null;
    columns.endpoint_scheme = endpoint?.scheme ?? null;
  }
  return columns;
}

const ENDPOINT_FIELDS = { id: 'endpoint_id', scheme: 'endpoint_scheme' };

export const listSellers = (ctx: Ctx, params: InvoiceSellerListParams) => repo.listSellers(ctx, params);

export async function getSeller(ctx: Ctx, id: number): Promise<InvoiceSellerRecord> {
  return orNotFound(await repo.findSeller(ctx, id), 'Invoice seller');
}

export async function createSeller(ctx: Ctx, body: InvoiceSellerCreateBody): Promise<InvoiceSellerRecord> {
  const columns = columnsFrom(body);
  return inTransaction(ctx, async (tx) => {
    const id = await repo.sellers.insert(tx, { status: 'active', ...columns, name: body.name });
    return getSeller(tx, id);
  });
}

/**
 * PATCH: status and logo_url are write-tier, the printed profile needs admin (the route's money fields). If-Match
 * is honoured when sent (compared under the row lock), not required.
 */
export async function updateSeller(
  ctx: Ctx,
  id: number,
  body: InvoiceSellerUpdateBody,
  precondition: Precondition | undefined,
): Promise<InvoiceSellerRecord> {
  const columns = columnsFrom(body);
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.sellers.lock(tx, id), 'Invoice seller');
    if (precondition) assertFresh(precondition, current.updated_at as string);
    if (Object.keys(body).length > 0) await repo.sellers.update(tx, id, columns);
    return getSeller(tx, id);
  });
}
