import type { Selectable } from 'kysely';
import type { InvoiceRowsTable, InvoicesTable } from '../../db/schema.ts';
import type { Ctx } from '../../platform/context.ts';
import { firstRecord } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { invoices } from './invoices.repository.ts';

/** The invoice and its rows as stored, every column: what its documents (PDF, UBL, mail) are rendered from. */
export type StoredInvoice = Selectable<InvoicesTable>;
export type StoredInvoiceRow = Selectable<InvoiceRowsTable>;

export function storedInvoice(ctx: Ctx, id: number): Promise<StoredInvoice | undefined> {
  return firstRecord<StoredInvoice>(invoices.base(ctx).selectAll('i').where('i.id', '=', id));
}

/** Every row (a document is never truncated, unlike the 200 a read inlines), in the order they were added. */
export function allStoredRows(ctx: Ctx, invoiceId: number): Promise<StoredInvoiceRow[]> {
  return scoped
    .select(ctx, 'invoice_rows', 'r')
    .selectAll('r')
    .where('r.invoice_id', '=', invoiceId)
    .orderBy('r.id')
    .execute();
}
