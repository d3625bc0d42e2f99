import { Decimal } from 'decimal.js';
import type { At } from './einvoice.model.ts';

/**
 * Numbers as the rules compute them: exact decimals; XPath's round() (halves towards +infinity) to two places.
 * A value that is not a decimal number reads as undefined (the schema's business, not the rules').
 */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_CEIL });
export type Num = InstanceType<typeof D>;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function num(at: At | string | undefined): Num | undefined {
  const text = typeof at === 'string' ? at : at?.value;
  return text !== undefined && DECIMAL.test(text.trim()) ? new D(text.trim()) : undefined;
}

export const zero = (): Num => new D(0);
export const round2 = (n: Num): Num => n.toDecimalPlaces(2, D.ROUND_HALF_CEIL);
export const sum = (values: (At | undefined)[]): Num => values.reduce((s, v) => s.plus(num(v) ?? 0), zero());
/** XPath round() of a number to an integer, for the rules that ask whether a rate "rounds to 0". */
export const roundInt = (n: Num): Num => n.toDecimalPlaces(0, D.ROUND_HALF_CEIL);
/** Places after the decimal point, as the BR-DEC rules count them. */
export const places = (text: string): number => (text.includes('.') ? text.split('.')[1]!.length : 0);
