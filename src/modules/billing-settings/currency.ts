import { domainValidation } from '../../platform/errors.ts';

// The ISO 4217 codes the runtime knows (ICU's list), read once.
const KNOWN = new Set(Intl.supportedValuesOf('currency'));

/** 400 VALIDATION_ERROR (reason INVALID_CURRENCY) naming the field when the code is not an ISO 4217 currency. */
export function assertCurrency(field: string, code: string | null | undefined): void {
  if (code === null || code === undefined || KNOWN.has(code)) return;
  throw domainValidation('INVALID_CURRENCY', `${field} ${code} is not an ISO 4217 currency code`, {
    field,
    value: code,
  });
}
