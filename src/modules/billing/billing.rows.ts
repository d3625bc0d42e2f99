import { Dec } from '../../platform/money.ts';
import type { InvoiceRowInput } from '../invoices/index.ts';
import type { FeeLine, RowTerms, WorkLine } from './billing.repository.ts';

/** An invoice row the engine writes, with what it bills (linked after insert). */
export interface DraftRow {
  input: InvoiceRowInput;
  entryIds: number[];
  fee?: { contractRowId: number; from: string; until: string };
}

/** Exact hours from seconds, 4 places (the quantity column's precision). */
export const hoursOf = (seconds: Dec) => seconds.dividedBy(3600).toDecimalPlaces(4).toFixed(4);

// Amounts go in as exact decimal text; the invoice row rules (decimalInput) accept text as well as numbers.
const amount = (text: string) => text as unknown as number;

function copied(terms: RowTerms): InvoiceRowInput {
  return {
    unit: terms.unit ?? undefined,
    discount_rate: amount(terms.discount_rate),
    tax_id: terms.tax_id,
    product_id: terms.product_id,
    article_id: terms.article_id,
    resource_id: terms.resource_id,
    billing_project_id: terms.billing_project_id,
    ext_variable: terms.ext_variable ?? undefined,
  };
}

/**
 * Time rows: one per hourly contract row, task and price (is_summarized: one per contract row and price, named
 * by summarized_description, else the row's description, else the product name). A price change inside the
 * period therefore splits a row in two. Each row's service period is the billed window.
 */
export function timeRows(
  lines: readonly WorkLine[],
  terms: Map<number, RowTerms>,
  summary: string | null,
  period: { from: string; until: string },
): DraftRow[] {
  const groups = new Map<string, WorkLine[]>();
  for (const line of lines) {
    const key = `${line.row_id}|${line.summarized ? '' : line.task_id}|${line.price}`;
    const group = groups.get(key);
    if (group) group.push(line);
    else groups.set(key, [line]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const row = terms.get(first.row_id)!;
    const seconds = group.reduce((sum, l) => sum.plus(l.billed_secs), new Dec(0));
    const people = new Set(group.map((l) => l.person_id));
    const name = first.summarized ? (summary ?? row.description ?? row.product_name ?? 'Work') : first.title;
    return {
      input: {
        ...copied(row),
        unit: row.unit ?? 'h',
        description: name,
        quantity: amount(hoursOf(seconds)),
        net_price: amount(first.price!),
        person_id: people.size === 1 ? first.person_id : null,
        // The service period (BG-26) is the billed window, the one the entries were chosen from.
        period_start: period.from,
        period_end: period.until,
        completed_at: group
          .map((l) => l.end)
          .sort()
          .at(-1)!,
      },
      entryIds: group.map((l) => l.id),
    };
  });
}

/** A periodic fee row for one period (quantity already pro rata). */
export function feeRow(fee: FeeLine, terms: RowTerms): DraftRow {
  const name = terms.description ?? terms.product_name ?? 'Fee';
  return {
    input: {
      ...copied(terms),
      description: `${name} (${fee.period_from} – ${fee.period_until})`,
      quantity: amount(fee.quantity),
      net_price: amount(fee.price!),
      period_start: fee.period_from,
      period_end: fee.period_until,
    },
    entryIds: [],
    fee: { contractRowId: fee.row_id, from: fee.period_from, until: fee.period_until },
  };
}
