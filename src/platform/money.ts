import { Decimal } from 'decimal.js';
import { domainValidation } from './errors.ts';

/**
 * Money is exact: decimal arithmetic here, numeric in PostgreSQL, never binary floating point.
 * The one rounding rule: each row's sums are rounded half away from zero to the currency's minor
 * unit; an invoice's totals are the sums of its rounded rows (so totals never drift from the rows).
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;
export type DecimalInput = Dec | string | number;

// ISO 4217 minor units that are not 2; the stored sums are numeric(14,2), so 3-place currencies round to 2 too.
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Decimal places of the currency's minor unit (2 unless the currency has none). */
export function minorUnits(currency: string | null | undefined): number {
  return currency && ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

/** The rounding rule, in one place. */
export function roundMoney(value: DecimalInput, currency?: string | null): Dec {
  return new Dec(value).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

export interface RowAmounts {
  quantity: DecimalInput;
  net_price: DecimalInput;
  /** Percent off, 0-100 (a 10 % discount is 10). */
  discount_rate?: DecimalInput | null;
  /** Fraction (22 % is 0.22); null or undefined: no tax. */
  tax_rate?: DecimalInput | null;
}

/**
 * A row's derived sums: net_sum = quantity × net_price − discount (discount = that × discount_rate / 100),
 * tax_sum = net_sum × tax_rate, each rounded by the rule above. Answers strings for numeric columns.
 */
export function rowSums(row: RowAmounts, currency?: string | null): { net_sum: string; tax_sum: string } {
  const gross = new Dec(row.quantity).times(row.net_price);
  const discount = gross.times(row.discount_rate ?? 0).dividedBy(100);
  const net = roundMoney(gross.minus(discount), currency);
  const tax = row.tax_rate == null ? new Dec(0) : roundMoney(net.times(row.tax_rate), currency);
  return { net_sum: net.toFixed(minorUnits(currency)), tax_sum: tax.toFixed(minorUnits(currency)) };
}

/** Exact sum of numeric values (strings from PostgreSQL or decimals). */
export function sumMoney(values: Iterable<DecimalInput>): Dec {
  let total = new Dec(0);
  for (const value of values) total = total.plus(value);
  return total;
}

export interface DecimalRule {
  /** Most decimal places accepted. */
  places: number;
  min?: DecimalInput;
  /** Exclusive bound a column can hold, e.g. 1e10 for numeric(14,4). */
  below?: DecimalInput;
  max?: DecimalInput;
}

/**
 * Checks an input amount against its column: finite, within range, no more decimals than stored
 * (nothing is silently rounded away). 400 VALIDATION_ERROR naming the field otherwise. Answers the
 * exact decimal text to store.
 */
export function decimalInput(field: string, value: DecimalInput, rule: DecimalRule): string {
  let parsed: Dec;
  try {
    parsed = new Dec(value);
  } catch {
    throw domainValidation('INVALID_AMOUNT', `${field} is not a number`, { field });
  }
  if (!parsed.isFinite()) throw domainValidation('INVALID_AMOUNT', `${field} must be a finite number`, { field });
  if (parsed.decimalPlaces() > rule.places)
    throw domainValidation('TOO_MANY_DECIMALS', `${field} takes at most ${rule.places} decimal places`, {
      field,
      max_decimals: rule.places,
    });
  const outOfRange =
    (rule.min !== undefined && parsed.lessThan(rule.min)) ||
    (rule.max !== undefined && parsed.greaterThan(rule.max)) ||
    (rule.below !== undefined && parsed.abs().greaterThanOrEqualTo(rule.below));
  if (outOfRange)
    throw domainValidation('OUT_OF_RANGE', `${field} is outside the range this field can hold`, {
      field,
      ...(rule.min !== undefined ? { min: Number(rule.min) } : {}),
      ...(rule.max !== undefined ? { max: Number(rule.max) } : {}),
      ...(rule.below !== undefined ? { below: Number(rule.below) } : {}),
    });
  return parsed.toFixed();
}

/** The column shapes of migration 0060, so every module checks amounts the same way. */
export const AMOUNT = {
  /** numeric(12,4): quantities. */
  quantity: { places: 4, min: 0, below: 1e8 },
  /** numeric(14,4): unit prices (negative allowed for credit rows). */
  unitPrice: { places: 4, below: 1e10 },
  /** numeric(14,2): sums such as paid_sum. */
  sum: { places: 2, below: 1e12 },
  /** numeric(7,4): discount percent 0-100. */
  discountPercent: { places: 4, min: 0, max: 100 },
  /** numeric(7,6): tax rate fraction 0-1. */
  taxRate: { places: 6, min: 0, max: 1 },
} as const satisfies Record<string, DecimalRule>;

/** numeric text from PostgreSQL → JSON number (the spec answers money as JSON numbers); null stays null. */
export const moneyOut = (value: string | number | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);
