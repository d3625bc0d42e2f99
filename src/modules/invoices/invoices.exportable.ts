import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { BILLED_STATUSES } from './invoice-status.ts';

/**
 * Billed invoices not exported yet (alias `i`): what an accounting system still has to take. The integrations
 * module filters, projects and pages it; no visibility rule applies (integration keys see the company's invoices).
 */
export const notExportedInvoices = (ctx: Ctx) =>
  scoped
    .select(ctx, 'invoices', 'i')
    .where('i.status', 'in', [...BILLED_STATUSES])
    .where('i.exported_at', 'is', null);
export type NotExportedQuery = ReturnType<typeof notExportedInvoices>;

/** The number of rows of the invoice `i`: a correlated subquery for a query over invoices aliased `i`. */
export const invoiceRowCount = () =>
  sql<number>`(select count(*)::int from invoice_rows r where r.company_id = i.company_id and r.invoice_id = i.id)`;
