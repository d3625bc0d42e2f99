import { Dec, minorUnits, roundMoney, sumMoney } from '../../platform/money.ts';
import type { InvoiceHeader, InvoiceRow } from './invoice-documents.repository.ts';

/**
 * EN 16931 VAT categories this service produces: standard rated, zero rated, and for a row without tax
 * exempt (E) when the seller has a VAT number, else not subject to VAT (O: a seller outside VAT, BR-E-02).
 */
export type TaxCategory = 'S' | 'Z' | 'E' | 'O';

/** Categories without a VAT rate: the PDF shows no percentage for them. */
export const isUntaxed = (category: TaxCategory) => category === 'E' || category === 'O';

export interface DocumentLine {
  row: InvoiceRow;
  /** quantity × unit price, rounded like the row's net_sum; the discount is gross − net. */
  gross: string;
  discount: string;
  net: string;
  tax: string;
  category: TaxCategory;
  percent: string;
}

export interface TaxGroup {
  category: TaxCategory;
  /** The rate in percent, without trailing zeros ("22", "9.5", "0"). */
  percent: string;
  /** Names of the taxes at this rate, as the rows carry them. */
  names: string[];
  taxable: string;
  tax: string;
}

export interface Totals {
  net: string;
  tax: string;
  total: string;
  paid: string;
  due: string;
}

/** Everything both renderings show, computed once so the PDF and the UBL file carry the same figures. */
export interface InvoiceDocument {
  invoice: InvoiceHeader;
  lines: DocumentLine[];
  taxes: TaxGroup[];
  totals: Totals;
  /** The invoice number, or draft-<id> while there is none. */
  label: string;
}

/** Money with exactly two places: the stored sums are numeric(14,2). */
export const money2 = (value: Dec | string): string => new Dec(value).toFixed(2);

/** A rate fraction (0.22) in percent without trailing zeros ("22"). */
export const percentOf = (rate: string | null): string => (rate === null ? '0' : new Dec(rate).times(100).toFixed());

function categoryOf(rate: string | null, sellerHasVat: boolean): TaxCategory {
  if (rate === null) return sellerHasVat ? 'E' : 'O';
  return new Dec(rate).isZero() ? 'Z' : 'S';
}

function lineOf(row: InvoiceRow, currency: string, sellerHasVat: boolean): DocumentLine {
  const gross = roundMoney(new Dec(row.quantity).times(row.net_price), currency);
  return {
    row,
    gross: money2(gross),
    discount: money2(gross.minus(row.net_sum)),
    net: money2(row.net_sum),
    tax: money2(row.tax_sum),
    category: categoryOf(row.tax_rate, sellerHasVat),
    percent: percentOf(row.tax_rate),
  };
}

/** One group per category and rate (UBL allows one TaxSubtotal per pair), sums of the rows' rounded figures. */
function taxGroups(lines: DocumentLine[]): TaxGroup[] {
  const groups = new Map<string, { group: TaxGroup; lines: DocumentLine[] }>();
  for (const line of lines) {
    const key = `${line.category}:${line.percent}`;
    const entry = groups.get(key) ?? {
      group: { category: line.category, percent: line.percent, names: [], taxable: '0', tax: '0' },
      lines: [],
    };
    entry.lines.push(line);
    const name = line.row.tax_name;
    if (name && !entry.group.names.includes(name)) entry.group.names.push(name);
    groups.set(key, entry);
  }
  return [...groups.values()]
    .map(({ group, lines: members }) => ({
      ...group,
      taxable: money2(sumMoney(members.map((l) => l.net))),
      tax: money2(sumMoney(members.map((l) => l.tax))),
    }))
    .sort((a, b) => new Dec(b.percent).comparedTo(a.percent) || a.category.localeCompare(b.category));
}

/**
 * The document's figures from the rows (the same per-row rounding the invoice's sums are made of), so
 * lines add up to the net total and rates to the tax total by construction; paid is the invoice's paid_sum.
 */
export function buildDocument(invoice: InvoiceHeader, rows: InvoiceRow[]): InvoiceDocument {
  const sellerHasVat = (invoice.seller_vat_code ?? '').trim() !== '';
  const lines = rows.map((row) => lineOf(row, invoice.currency, sellerHasVat));
  const net = sumMoney(lines.map((l) => l.net));
  const tax = sumMoney(lines.map((l) => l.tax));
  const total = net.plus(tax);
  return {
    invoice,
    lines,
    taxes: taxGroups(lines),
    totals: {
      net: money2(net),
      tax: money2(tax),
      total: money2(total),
      paid: money2(invoice.paid_sum),
      due: money2(total.minus(invoice.paid_sum)),
    },
    label: invoice.invoice_number ?? `draft-${invoice.id}`,
  };
}

/** Places a currency's amounts are shown with on paper (0 for JPY and the like, else 2). */
export const shownPlaces = (currency: string) => minorUnits(currency);
