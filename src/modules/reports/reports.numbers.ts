import { Dec, roundMoney, type DecimalInput } from '../../platform/money.ts';

/** Hours from seconds, half away from zero to the hundredth (seconds stay exact where a report answers them). */
export const hoursOf = (secs: DecimalInput): number =>
  new Dec(secs).dividedBy(3600).toDecimalPlaces(2, Dec.ROUND_HALF_UP).toNumber();

/** An exact SQL sum rounded once by the money rule to the currency's minor unit (still a decimal). */
export const rounded = (value: DecimalInput, currency: string): Dec => roundMoney(value, currency);

/** A rounded decimal as the API's money number (JSON number). */
export const moneyNumber = (value: DecimalInput, currency: string): number => rounded(value, currency).toNumber();
