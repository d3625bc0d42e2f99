import { domainValidation } from '../../platform/errors.ts';
import { AMOUNT, Dec, decimalInput, minorUnits, rowSums } from '../../platform/money.ts';
import type { StoredInvoiceRow } from './invoices.stored.ts';

/*
 * What a credit note's rows are (decision 0064). Each credits one invoice row (credited_row_id): a quantity of it
 * at its price and discount, an amount of its net, or what is left of it. The cap is the row's net: the credit
 * notes of a row never add up to more than the row (in magnitude, with its sign).
 */

/** One item of POST /invoices/{id}/credit-notes: a row and how much of it. */
export interface CreditItem {
  row_id: number;
  quantity?: string;
  net_amount?: string;
}

/** An item as the body sends it (numbers, as every amount of the API). */
export interface CreditItemInput {
  row_id: number;
  quantity?: number;
  net_amount?: number;
}

/** One amount of an item as an exact decimal, not 0: 400 VALIDATION_ERROR otherwise. */
function nonZero(field: string, value: number, places: number, below: number): string {
  const text = decimalInput(field, value, { places, below });
  if (new Dec(text).isZero()) throw domainValidation('OUT_OF_RANGE', `${field} must not be 0`, { field });
  return text;
}

/** The body's items as exact decimals; quantity and net_amount together, or a quantity under 0, are 400. */
export function creditItems(inputs: readonly CreditItemInput[], currency: string): CreditItem[] {
  return inputs.map((input, i) => {
    const field = (name: string) => `rows[${i}].${name}`;
    if (input.quantity !== undefined && input.net_amount !== undefined)
      throw domainValidation(
        'QUANTITY_AND_AMOUNT',
        `${field('quantity')} and ${field('net_amount')} exclude each other`,
        {
          field: field('net_amount'),
        },
      );
    const item: CreditItem = { row_id: input.row_id };
    if (input.quantity !== undefined) {
      decimalInput(field('quantity'), input.quantity, AMOUNT.quantity);
      item.quantity = nonZero(field('quantity'), input.quantity, AMOUNT.quantity.places, AMOUNT.quantity.below);
    }
    if (input.net_amount !== undefined)
      item.net_amount = nonZero(field('net_amount'), input.net_amount, minorUnits(currency), AMOUNT.sum.below);
    return item;
  });
}

export interface CreditRejection {
  row_index: number;
  row_id: number;
  code: string;
  message: string;
  field?: string;
}

export type CreditRowColumns = Record<string, unknown>;

/** Columns a credit-note row does not take over from the row it credits. */
const ROW_OWN_COLUMNS = ['id', 'invoice_id', 'created_at', 'updated_at', 'credited_row_id'] as const;

function copyOf(row: StoredInvoiceRow): CreditRowColumns {
  const copy: CreditRowColumns = { ...row };
  for (const column of ROW_OWN_COLUMNS) delete copy[column];
  return { ...copy, credited_row_id: row.id };
}

/** The row at another quantity: its price, discount and tax, the sums of the row rule. */
function atQuantity(row: StoredInvoiceRow, quantity: Dec, currency: string): CreditRowColumns {
  const amounts = { quantity: quantity.toFixed(), net_price: row.net_price, discount_rate: row.discount_rate };
  return { ...copyOf(row), ...amounts, ...rowSums({ ...amounts, tax_rate: row.tax_rate }, currency) };
}

/** An amount of the row's net: one unit at that price, no discount, the row's tax. */
function ofAmount(row: StoredInvoiceRow, amount: Dec, currency: string): CreditRowColumns {
  const amounts = { quantity: '1', net_price: amount.toFixed(), discount_rate: '0' };
  return { ...copyOf(row), ...amounts, unit: null, ...rowSums({ ...amounts, tax_rate: row.tax_rate }, currency) };
}

/** What is left to credit on a row, given the net its credit notes already took (same sign as the row's). */
export function leftOf(row: StoredInvoiceRow, credited: Dec): Dec {
  const left = new Dec(row.net_sum).minus(credited);
  return left.isZero() || left.isNegative() !== new Dec(row.net_sum).isNegative() ? new Dec(0) : left;
}

/**
 * The row that credits what is left: the whole row when nothing was credited (a row of 0.00 too, so an annulled
 * invoice's credit note shows every row), else the quantity left when it gives exactly the net left, else the
 * amount left. Undefined when nothing is left.
 */
export function remainderOf(row: StoredInvoiceRow, credited: Dec, currency: string): CreditRowColumns | undefined {
  if (new Dec(row.net_sum).isZero() || credited.isZero()) return copyOf(row);
  const left = leftOf(row, credited);
  if (left.isZero()) return undefined;
  const quantity = new Dec(row.quantity).times(left).dividedBy(row.net_sum);
  if (quantity.decimalPlaces() <= AMOUNT.quantity.places) {
    const candidate = atQuantity(row, quantity, currency);
    if (new Dec(candidate.net_sum as string).equals(left)) return candidate;
  }
  return ofAmount(row, left, currency);
}

type Planned = { columns: CreditRowColumns; left: Dec } | { rejection: Omit<CreditRejection, 'row_index' | 'row_id'> };

/** One item against its row: the credit-note row, or why it is refused. */
export function planItem(item: CreditItem, row: StoredInvoiceRow, credited: Dec, currency: string): Planned {
  const left = leftOf(row, credited);
  const refuse = (code: string, message: string, field?: string) => ({
    rejection: { code, message, ...(field ? { field } : {}) },
  });
  if (new Dec(row.net_sum).isZero()) return refuse('NOTHING_TO_CREDIT', `Row ${row.id} has a net_sum of 0.00`);
  if (left.isZero()) return refuse('NOTHING_LEFT', `Row ${row.id} is credited in full already`);
  if (item.quantity !== undefined && new Dec(item.quantity).greaterThan(row.quantity))
    return refuse('QUANTITY_EXCEEDED', `quantity ${item.quantity} is more than the row's ${row.quantity}`, 'quantity');
  if (item.net_amount !== undefined && new Dec(item.net_amount).isNegative() !== new Dec(row.net_sum).isNegative())
    return refuse('SIGN_MISMATCH', `net_amount must have the sign of the row's net_sum (${row.net_sum})`, 'net_amount');
  const columns =
    item.quantity !== undefined
      ? atQuantity(row, new Dec(item.quantity), currency)
      : item.net_amount !== undefined
        ? ofAmount(row, new Dec(item.net_amount), currency)
        : remainderOf(row, credited, currency)!;
  const net = new Dec(columns.net_sum as string);
  if (net.isZero())
    return refuse(
      'NOTHING_TO_CREDIT',
      'The credit comes to 0.00',
      item.quantity !== undefined ? 'quantity' : undefined,
    );
  if (net.abs().greaterThan(left.abs()))
    return refuse(
      'AMOUNT_EXCEEDED',
      `The credit (${net.toFixed()}) is more than what is left to credit on row ${row.id} (${left.toFixed()})`,
      item.quantity !== undefined ? 'quantity' : item.net_amount !== undefined ? 'net_amount' : undefined,
    );
  return { columns, left: left.minus(net) };
}
