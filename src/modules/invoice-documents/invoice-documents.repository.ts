import type { Selectable } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import type { InvoiceRowsTable, InvoicesTable } from '../../db/schema.ts';
import { nowStamp, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable } from '../../platform/tenant-table.ts';

/** Invoices are the invoices module's table; this module reads them and moves only exported_at (sending: invoices). */
export const invoices = tenantTable('invoices', { alias: 'i', lockColumns: ['status'] });

/** The client's address in its parts, from the client record (the snapshot keeps it as one line). */
export interface ClientAddressParts {
  client_country_code: string | null;
  client_street: string | null;
  client_city: string | null;
  client_zip: string | null;
  client_state: string | null;
}
export type InvoiceHeader = Selectable<InvoicesTable> & ClientAddressParts;
export type InvoiceRow = Selectable<InvoiceRowsTable>;

/** The invoice as its documents show it: the stored snapshot, plus the client's address parts (the snapshot has one line). */
export async function findHeader(ctx: Ctx, id: number): Promise<InvoiceHeader | undefined> {
  return firstRecord<InvoiceHeader>(
    invoices
      .base(ctx)
      .leftJoin('clients as c', (join) =>
        join.onRef('c.company_id', '=', 'i.company_id').onRef('c.id', '=', 'i.client_id'),
      )
      .selectAll('i')
      .select([
        'c.address_country_code as client_country_code',
        'c.address_street as client_street',
        'c.address_city as client_city',
        'c.address_zip as client_zip',
        'c.address_state as client_state',
      ])
      .where('i.id', '=', id),
  );
}

/** Every row (a document is never truncated), in the order they were added. */
export async function findRows(ctx: Ctx, invoiceId: number): Promise<InvoiceRow[]> {
  return scoped
    .select(ctx, 'invoice_rows', 'r')
    .selectAll('r')
    .where('r.invoice_id', '=', invoiceId)
    .orderBy('r.id')
    .execute() as Promise<InvoiceRow[]>;
}

/** Locks the invoice for the rest of the transaction: id, updated_at and status; undefined when absent. */
export async function lockInvoice(ctx: Ctx, id: number) {
  return (await invoices.lock(ctx, id)) as { id: number; updated_at: string; status: string } | undefined;
}

export async function setExported(ctx: Ctx, id: number): Promise<void> {
  await invoices.update(ctx, id, { exported_at: nowStamp() });
}

/** The e-mail of the client's primary contact (the oldest, should there be several). */
export async function primaryContactEmail(ctx: Ctx, clientId: number): Promise<string | undefined> {
  const row = await scoped
    .select(ctx, 'contacts', 'co')
    .select('co.email')
    .where('co.client_id', '=', clientId)
    .where('co.is_primary', '=', 1)
    .where('co.deleted_at', 'is', null)
    .where('co.email', 'is not', null)
    .where('co.email', '<>', '')
    .orderBy('co.id')
    .executeTakeFirst();
  return row?.email ?? undefined;
}
