import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** A time entry an invoice bills, with that invoice's status. */
export interface InvoiceLink {
  time_entry_id: number;
  invoice_id: number;
  status: string;
}

/** Which of these entries an invoice bills (annulled invoices drop their links, so every link is live). */
export async function invoiceLinks(ctx: Ctx, entryIds: readonly number[]): Promise<InvoiceLink[]> {
  if (entryIds.length === 0) return [];
  return scoped
    .select(ctx, 'invoice_row_entries', 'l')
    .innerJoin('invoices as i', (join) =>
      join.onRef('i.company_id', '=', 'l.company_id').onRef('i.id', '=', 'l.invoice_id'),
    )
    .select(['l.time_entry_id', 'l.invoice_id', 'i.status'])
    .where('l.time_entry_id', '=', sql<number>`any(${[...entryIds]}::int[])`)
    .orderBy('l.time_entry_id')
    .execute();
}
